//! The Cranelift contexts a thread compiles with, kept between compiles.
//!
//! A function's instructions, values, blocks and the builder's variable
//! tables live in vectors that grow as a shader is translated; a context
//! made afresh for every shader grows them again, reallocating and copying
//! each time. A cleared context keeps its capacity, so each thread keeps
//! the pair it last compiled with and the next compile starts from it.

use cranelift_codegen::Context;
use cranelift_frontend::FunctionBuilderContext;
use std::cell::RefCell;

/// A function's context and its builder's.
pub struct Contexts {
    /// The function being compiled and Cranelift's state for it.
    pub ctx: Context,
    /// The function builder's variables and block states.
    pub fctx: FunctionBuilderContext,
}

thread_local! {
    static KEPT: RefCell<Option<Contexts>> = const { RefCell::new(None) };
}

/// The contexts this thread compiled with last (cleared), or new ones.
pub fn take() -> Contexts {
    KEPT.with(|kept| kept.borrow_mut().take())
        .unwrap_or_else(|| Contexts {
            ctx: Context::new(),
            fctx: FunctionBuilderContext::new(),
        })
}

/// Keeps `contexts` for this thread's next compile. `contexts.ctx` must be
/// cleared and `contexts.fctx` finished (a builder was finalized with it).
pub fn keep(contexts: Contexts) {
    KEPT.with(|kept| *kept.borrow_mut() = Some(contexts));
}

#[cfg(test)]
mod tests {
    use super::{keep, take};

    #[test]
    fn a_kept_pair_is_taken_once_then_new_ones_are_made() {
        // Three blocks mark the kept context (left uncleared for the test).
        let mut c = take();
        for _ in 0..3 {
            c.ctx.func.dfg.make_block();
        }
        keep(c);
        assert_eq!(take().ctx.func.dfg.num_blocks(), 3);
        assert_eq!(take().ctx.func.dfg.num_blocks(), 0);
    }
}
