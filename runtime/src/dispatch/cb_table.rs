//! Constant buffers as compiled code reads them.
//!
//! Compiled code reads the constant-buffer rows a shader names with a
//! literal index without testing them against the bound size: the kernel
//! says how many bytes of each slot those reads reach
//! ([`Kernel::cb_static_bytes`]), and a call whose bound buffer is smaller
//! reads a zero-padded copy of it instead. Rows past the bound size thus
//! still read 0, as Direct3D requires, at no cost per read. A view keeps
//! the bound size, which indexed reads go on testing.

use super::{Block, Kernel};
use crate::abi::View;

/// The constant-buffer views one call reads, with the copies it owns.
pub(crate) struct CbTable {
    views: Vec<View>,
    /// The padded copies some of `views` point into.
    _copies: Vec<Block>,
}

impl CbTable {
    /// `cbs` as kernel `k` reads them: each view that is smaller than the
    /// kernel's literal-index reads reach is replaced by a copy padded with
    /// zeros to that size.
    ///
    /// # Safety
    /// Each view in `cbs` points to memory valid for reading its `size`
    /// bytes (or is null with any size, meaning nothing is bound).
    pub(crate) unsafe fn new(k: &Kernel, cbs: &[View]) -> CbTable {
        let mut views = cbs.to_vec();
        let mut copies = Vec::new();
        for (view, &need) in views.iter_mut().zip(&k.cb_static_bytes) {
            if need == 0 || (view.size >= need && !view.ptr.is_null()) {
                continue;
            }
            let mut copy = Block::new(need as usize);
            if !view.ptr.is_null() {
                let bound = (view.size as usize).min(need as usize);
                // SAFETY: the view is readable for `size` bytes (the caller's
                // contract) and the copy holds at least `need` bytes.
                unsafe { std::ptr::copy_nonoverlapping(view.ptr, copy.ptr(), bound) };
            }
            view.ptr = copy.ptr();
            copies.push(copy);
        }
        CbTable {
            views,
            _copies: copies,
        }
    }

    /// The views, for `Frame::cbs`.
    pub(crate) fn as_ptr(&self) -> *const View {
        self.views.as_ptr()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    unsafe extern "C" fn never_called(_: *mut crate::abi::Frame) -> u32 {
        unreachable!("the table never calls the kernel")
    }

    fn kernel(need: u32) -> Kernel {
        let mut cb_static_bytes = [0; crate::abi::CB_SLOTS];
        cb_static_bytes[2] = need;
        Kernel {
            func: never_called,
            lanes: 4,
            scratch_size: 0,
            input_regs: 0,
            output_regs: 0,
            tgsm_size: 0,
            thread_group: [1; 3],
            has_barriers: false,
            inline_pairs: [[0; 2]; crate::sampler::INLINE_PAIRS],
            inline_pair_count: 0,
            direct_outputs: 0,
            cb_static_bytes,
            runs_vertices: false,
        }
    }

    fn view(bytes: &mut [u8]) -> View {
        View {
            ptr: bytes.as_mut_ptr(),
            size: bytes.len() as u32,
            ..View::EMPTY
        }
    }

    fn bytes_of(table: &CbTable, slot: usize, n: usize) -> Vec<u8> {
        let v = table.views[slot];
        // SAFETY: the table's view of `slot` holds at least `n` bytes here.
        unsafe { std::slice::from_raw_parts(v.ptr, n) }.to_vec()
    }

    #[test]
    fn a_large_enough_buffer_is_read_in_place() {
        let mut data = [7u8; 48];
        let mut cbs = vec![View::EMPTY; crate::abi::CB_SLOTS];
        cbs[2] = view(&mut data);
        // SAFETY: `data` outlives the table.
        let table = unsafe { CbTable::new(&kernel(48), &cbs) };
        assert_eq!(table.views[2].ptr, data.as_mut_ptr());
    }

    #[test]
    fn a_short_buffer_is_copied_and_padded_with_zeros() {
        let mut data = [7u8; 20];
        let mut cbs = vec![View::EMPTY; crate::abi::CB_SLOTS];
        cbs[2] = view(&mut data);
        // SAFETY: `data` outlives the table.
        let table = unsafe { CbTable::new(&kernel(64), &cbs) };
        assert_ne!(table.views[2].ptr, data.as_mut_ptr());
        // The bound size stays what indexed reads test against.
        assert_eq!(table.views[2].size, 20);
        let mut want = vec![7u8; 20];
        want.resize(64, 0);
        assert_eq!(bytes_of(&table, 2, 64), want);
    }

    #[test]
    fn an_unbound_slot_reads_zeros() {
        let cbs = vec![View::EMPTY; crate::abi::CB_SLOTS];
        // SAFETY: no view points anywhere.
        let table = unsafe { CbTable::new(&kernel(32), &cbs) };
        assert_eq!(table.views[2].size, 0);
        assert_eq!(bytes_of(&table, 2, 32), vec![0; 32]);
        // Slots the kernel does not read stay as bound.
        assert!(table.views[0].ptr.is_null());
    }
}
