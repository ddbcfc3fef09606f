//! The runtime helpers compiled code calls, derived from the runtime's one
//! list of them ([`dxjit_runtime::foreach_helper!`]): a handle per helper,
//! its Cranelift signature, its symbol and address, and the libcalls
//! Cranelift may emit. Each address is taken through an `unsafe extern "C"
//! fn` pointer of the listed types, so a helper whose Rust type drifts from
//! the list does not compile.

use cranelift_codegen::ir::{
    types, AbiParam, ExtFuncData, ExternalName, FuncRef, Function, Signature, Type,
    UserExternalName,
};
use cranelift_codegen::isa::CallConv;
use std::arch::x86_64::{__m128, __m128i};

/// The Cranelift types a Rust parameter or return type is passed as.
trait AbiType {
    /// The types, in order (none for `()`).
    const TYPES: &'static [Type];
}

impl AbiType for () {
    const TYPES: &'static [Type] = &[];
}

impl AbiType for i32 {
    const TYPES: &'static [Type] = &[types::I32];
}

impl AbiType for u32 {
    const TYPES: &'static [Type] = &[types::I32];
}

impl AbiType for u64 {
    const TYPES: &'static [Type] = &[types::I64];
}

impl AbiType for f32 {
    const TYPES: &'static [Type] = &[types::F32];
}

impl AbiType for f64 {
    const TYPES: &'static [Type] = &[types::F64];
}

impl AbiType for __m128 {
    const TYPES: &'static [Type] = &[types::I32X4];
}

impl AbiType for __m128i {
    const TYPES: &'static [Type] = &[types::I32X4];
}

impl<T> AbiType for *const T {
    const TYPES: &'static [Type] = &[types::I64];
}

impl<T> AbiType for *mut T {
    const TYPES: &'static [Type] = &[types::I64];
}

/// A System V signature from parameter and return type lists.
fn signature(params: &[&[Type]], returns: &[Type]) -> Signature {
    let mut sig = Signature::new(CallConv::SystemV);
    sig.params.extend(
        params
            .iter()
            .flat_map(|t| t.iter())
            .map(|t| AbiParam::new(*t)),
    );
    sig.returns
        .extend(returns.iter().map(|t| AbiParam::new(*t)));
    sig
}

/// Defines [`HelperId`] and [`libcalls`] from the runtime's list.
macro_rules! define_helpers {
    (
        calls {
            $(
                $(#[$doc:meta])*
                $id:ident = $module:ident :: $func:ident ( $($p:ident : $t:ty),* $(,)? ) -> $r:ty;
            )*
        }
        libcalls {
            $( $lmodule:ident :: $lfunc:ident ( $($lp:ident : $lt:ty),* ) -> $lr:ty; )*
        }
    ) => {
        /// A runtime helper compiled code calls.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum HelperId {
            $( $(#[$doc])* $id, )*
        }

        impl HelperId {
            /// Every helper, in declaration order.
            pub const ALL: &'static [HelperId] = &[$(HelperId::$id),*];

            /// The symbol the helper is bound to.
            pub fn name(self) -> &'static str {
                match self {
                    $( HelperId::$id => stringify!($func), )*
                }
            }

            /// The helper's address.
            pub fn addr(self) -> *const u8 {
                match self {
                    $( HelperId::$id => {
                        let f: unsafe extern "C" fn($($t),*) -> $r = dxjit_runtime::$module::$func;
                        f as *const u8
                    } )*
                }
            }

            /// The helper's Cranelift signature.
            pub fn signature(self) -> Signature {
                match self {
                    $( HelperId::$id => signature(&[$(<$t as AbiType>::TYPES),*], <$r as AbiType>::TYPES), )*
                }
            }
        }

        /// The libcalls Cranelift may emit: symbol and address.
        pub fn libcalls() -> Vec<(&'static str, *const u8)> {
            vec![$(
                {
                    let f: unsafe extern "C" fn($($lt),*) -> $lr = dxjit_runtime::$lmodule::$lfunc;
                    (stringify!($lfunc), f as *const u8)
                }
            ),*]
        }
    };
}

dxjit_runtime::foreach_helper!(define_helpers);

/// The helpers one function calls, imported the first time each is
/// called: a function imports only what it calls, which keeps Cranelift's
/// per-signature work to those.
pub struct HelperRefs {
    /// Each helper's index in the function namespace (namespace 0) of
    /// external names, in [`HelperId::ALL`] order.
    names: Vec<u32>,
    /// Each helper's reference, once imported.
    refs: Vec<Option<FuncRef>>,
}

impl HelperRefs {
    /// Helpers named by `names`, their indices in namespace 0, in
    /// [`HelperId::ALL`] order (a module's function ids).
    pub fn new(names: Vec<u32>) -> Self {
        let refs = vec![None; names.len()];
        HelperRefs { names, refs }
    }

    /// The reference to call `id` through, imported into `func` now if it
    /// is not yet.
    pub fn get(&mut self, func: &mut Function, id: HelperId) -> FuncRef {
        if let Some(f) = self.refs[id as usize] {
            return f;
        }
        let name =
            func.declare_imported_user_function(UserExternalName::new(0, self.names[id as usize]));
        let signature = func.import_signature(id.signature());
        let f = func.import_function(ExtFuncData {
            name: ExternalName::user(name),
            signature,
            colocated: false,
            patchable: false,
        });
        self.refs[id as usize] = Some(f);
        f
    }
}

#[cfg(test)]
mod tests {
    use super::{libcalls, HelperId};
    use std::collections::HashSet;

    #[test]
    fn handles_index_all_and_symbols_are_distinct() {
        let mut names = HashSet::new();
        for (i, id) in HelperId::ALL.iter().enumerate() {
            assert_eq!(*id as usize, i);
            assert!(names.insert(id.name()), "{} twice", id.name());
            assert!(!id.addr().is_null());
        }
        for (name, addr) in libcalls() {
            assert!(names.insert(name), "{name} twice");
            assert!(!addr.is_null());
        }
    }

    #[test]
    fn signatures_follow_the_rust_types() {
        let load = HelperId::TypedLoad.signature();
        assert_eq!(load.params.len(), 6);
        assert!(load.returns.is_empty());
        let exp = HelperId::Exp2.signature();
        assert_eq!(exp.params.len(), 1);
        assert_eq!(exp.returns.len(), 1);
        assert_eq!(exp.params[0].value_type, exp.returns[0].value_type);
    }
}
