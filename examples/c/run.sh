#!/usr/bin/env bash
# Builds the C API, then builds and runs the C example against its static
# library: once plainly, once under AddressSanitizer and UBSan.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build -p dxjit-capi --release --quiet
out=target/c-example
mkdir -p "$out"
lib=target/release/libdxjit_capi.a
flags=(-std=c11 -Wall -Wextra -Werror -Icapi/include)
libs=(-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc)
cc "${flags[@]}" -O1 examples/c/example.c "$lib" "${libs[@]}" -o "$out/example"
"$out/example"
cc "${flags[@]}" -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
  -fno-sanitize-recover=undefined examples/c/example.c "$lib" "${libs[@]}" -o "$out/example-asan"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 "$out/example-asan"
