//! The in-memory shader cache: hits, misses, options in the key, and
//! least-recently-used eviction.

mod common;

use dxjit::{CacheLimit, CacheStats, CompileOptions, ShaderCache, Spawner, Tier};
use std::sync::Arc;

/// First tier alone: no background work to wait for.
fn first_tier() -> CompileOptions {
    CompileOptions {
        tier: Tier::First,
        ..CompileOptions::default()
    }
}

fn cache(entries: usize) -> ShaderCache {
    ShaderCache::with_spawner(
        CacheLimit {
            entries,
            ..CacheLimit::default()
        },
        Spawner::inline(),
    )
}

#[test]
fn the_same_bytes_and_options_give_the_same_shader() {
    let [a, ..] = common::three_kernels();
    let cache = cache(8);
    let first = cache.get_or_compile(&a, &first_tier()).unwrap();
    let second = cache.get_or_compile(&a, &first_tier()).unwrap();
    assert!(Arc::ptr_eq(&first, &second));
    assert_eq!(cache.stats(), CacheStats { hits: 1, misses: 1 });
    assert_eq!(cache.len(), 1);
}

#[test]
fn different_bytes_or_options_miss() {
    let [a, b, _] = common::three_kernels();
    let cache = cache(8);
    let base = cache.get_or_compile(&a, &first_tier()).unwrap();
    let other_k = CompileOptions {
        k: Some(2),
        ..first_tier()
    };
    let other_tier = CompileOptions {
        tier: Tier::Top,
        ..first_tier()
    };
    for options in [other_k, other_tier] {
        let s = cache.get_or_compile(&a, &options).unwrap();
        assert!(!Arc::ptr_eq(&base, &s), "{options:?} hit");
    }
    let s = cache.get_or_compile(&b, &first_tier()).unwrap();
    assert!(!Arc::ptr_eq(&base, &s));
    assert_eq!(cache.stats(), CacheStats { hits: 0, misses: 4 });
    assert_eq!(cache.len(), 4);
}

#[test]
fn the_least_recently_used_shader_goes_first() {
    let [a, b, c] = common::three_kernels();
    let cache = cache(2);
    let options = first_tier();
    cache.get_or_compile(&a, &options).unwrap();
    cache.get_or_compile(&b, &options).unwrap();
    assert!(cache.get(&a, &options).is_some(), "a is now the newest");
    cache.get_or_compile(&c, &options).unwrap();
    assert_eq!(cache.len(), 2);
    assert!(cache.get(&b, &options).is_none(), "b was the oldest");
    assert!(cache.get(&a, &options).is_some());
    assert!(cache.get(&c, &options).is_some());
}

#[test]
fn the_code_byte_cap_keeps_only_the_newest_when_each_shader_exceeds_it() {
    let [a, b, _] = common::three_kernels();
    let cache = ShaderCache::with_spawner(
        CacheLimit {
            entries: 8,
            code_bytes: 1,
        },
        Spawner::inline(),
    );
    let options = first_tier();
    let evicted = cache.get_or_compile(&a, &options).unwrap();
    let kept = cache.get_or_compile(&b, &options).unwrap();
    assert_eq!(cache.len(), 1);
    assert!(cache.get(&a, &options).is_none());
    assert_eq!(cache.code_bytes(), kept.code_bytes());
    assert!(evicted.code_size() > 0, "an evicted shader stays usable");
}
