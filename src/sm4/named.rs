//! `named_enum!`: an enumerated token field as a Rust enum whose variants
//! carry their number and the name the disassembler prints, with checked
//! conversions from and to `u32`.

/// Defines a `#[repr(u32)]` enum from `Variant = number => "name"` rows,
/// with `ALL`, `TABLE`, `from_code`, `code`, `name`, `from_name` and the
/// `TryFrom<u32>`/`From<_> for u32` conversions. Numbers no row has are
/// refused (`None`, or `Err(number)`).
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $code:literal => $text:literal, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u32)]
        pub enum $name {
            $( $(#[$vmeta])* #[doc = concat!("Printed `", $text, "`.")] $variant = $code, )*
        }

        impl $name {
            /// Every value, in table order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// Every value's number and name, in table order.
            pub const TABLE: &'static [(u32, &'static str)] = &[$(($code, $text)),*];

            /// The value a token field holds, or `None` for a number no value has.
            pub const fn from_code(code: u32) -> Option<Self> {
                match code {
                    $( $code => Some($name::$variant), )*
                    _ => None,
                }
            }

            /// The number the token field holds.
            pub const fn code(self) -> u32 {
                self as u32
            }

            /// The name the disassembler prints.
            pub const fn name(self) -> &'static str {
                match self {
                    $( $name::$variant => $text, )*
                }
            }

            /// The value of a name, ignoring ASCII case.
            pub fn from_name(name: &str) -> Option<Self> {
                Self::ALL
                    .iter()
                    .copied()
                    .find(|v| v.name().eq_ignore_ascii_case(name))
            }
        }

        impl TryFrom<u32> for $name {
            type Error = u32;

            fn try_from(code: u32) -> Result<Self, u32> {
                Self::from_code(code).ok_or(code)
            }
        }

        impl From<$name> for u32 {
            fn from(value: $name) -> u32 {
                value.code()
            }
        }
    };
}

pub(crate) use named_enum;
