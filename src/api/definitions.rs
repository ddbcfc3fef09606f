//! D3D9 `def` constants: rows a shader defines itself override what the
//! application bound in that constant buffer, for that shader only.

use dxjit_runtime::abi::View;
use dxjit_runtime::dispatch::Bindings as RawBindings;

/// Constant buffers rewritten with the program's definitions, kept alive
/// while a call reads them through the bindings they were put in.
pub(crate) struct Defined {
    _blocks: Vec<Vec<u128>>,
}

/// Replaces each constant buffer a shader defines rows of (`defined`: slot,
/// row, words) with a copy of the bound bytes (zeros where nothing was
/// bound) carrying the definitions.
pub(crate) fn apply(defined: &[(u32, u32, [u32; 4])], raw: &mut RawBindings) -> Defined {
    let mut owned = Vec::new();
    let mut slots: Vec<u32> = defined.iter().map(|d| d.0).collect();
    slots.sort_unstable();
    slots.dedup();
    for slot in slots {
        let Some(view) = raw.cbs.get_mut(slot as usize) else {
            continue;
        };
        let rows = defined
            .iter()
            .filter(|d| d.0 == slot)
            .map(|d| d.1 as usize + 1)
            .max()
            .unwrap_or(0);
        let bound = bound_bytes(view);
        let mut block = vec![0u128; bound.len().div_ceil(16).max(rows)];
        for (chunk, word) in bound.chunks(16).zip(block.iter_mut()) {
            let mut b = [0u8; 16];
            b[..chunk.len()].copy_from_slice(chunk);
            *word = u128::from_le_bytes(b);
        }
        for (_, row, words) in defined.iter().filter(|d| d.0 == slot) {
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            let mut b = [0u8; 16];
            b.copy_from_slice(&bytes);
            block[*row as usize] = u128::from_le_bytes(b);
        }
        *view = View {
            ptr: block.as_mut_ptr().cast(),
            size: (block.len() * 16) as u32,
            ..View::EMPTY
        };
        owned.push(block);
    }
    Defined { _blocks: owned }
}

fn bound_bytes(view: &View) -> &[u8] {
    if view.ptr.is_null() {
        return &[];
    }
    // SAFETY: a bound view points to `size` readable bytes borrowed by the
    // bindings for as long as they are used, which outlives this copy.
    unsafe { std::slice::from_raw_parts(view.ptr, view.size as usize) }
}
