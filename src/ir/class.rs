//! SM5 class linkage (dynamic shader linkage): the interface slots a
//! program declares and where their bindings reach the compiled code.
//!
//! The embedder binds a class instance to every interface slot (object
//! site): the function table of its class and its `this` data. The runtime
//! hands both to the shader in constant buffer [`CLASS_CB_SLOT`], which the
//! D3D11 API cannot bind (its slots are 0-13):
//!
//! - row `i` holds `this[i]`: constant-buffer slot, offset into it in
//!   16-byte rows, first texture slot, first sampler slot (the component
//!   order doitsujin/dxbc-spirv gives the `this` register);
//! - row [`TABLE_ROW`]` + i`, component x, holds the bound function table
//!   plus 1; 0 means nothing is bound, and an `fcall` through it calls
//!   nothing.

/// The constant-buffer slot that carries class-instance bindings.
pub const CLASS_CB_SLOT: u32 = 14;

/// The row of [`CLASS_CB_SLOT`] where the function tables start.
pub const TABLE_ROW: u32 = 256;

/// The most interface slots a shader may declare (the sum of the array
/// sizes of its `dcl_interface`s), as Microsoft's `dcl_interface` page
/// states.
pub const MAX_SLOTS: u32 = 253;

/// The rows of [`CLASS_CB_SLOT`] a binding fills.
pub const ROWS: u32 = TABLE_ROW + MAX_SLOTS;

/// One `dcl_interface fpN[array][call sites] = {ft...}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InterfaceDecl {
    /// The first interface slot (`N` of `fpN`).
    pub first: u32,
    /// The array size: slots `first .. first + count`.
    pub count: u32,
    /// The method slots (call sites) each table fills.
    pub call_sites: u32,
    /// The function tables that may be bound to these slots.
    pub tables: Vec<u32>,
}

impl InterfaceDecl {
    /// Whether slot `slot` belongs to this interface.
    pub fn holds(&self, slot: u32) -> bool {
        slot >= self.first && slot - self.first < self.count
    }
}

/// The words of [`CLASS_CB_SLOT`] for `bound`: per interface slot, the
/// function table and the `this` data bound there, if any.
pub fn rows(bound: &[Option<(u32, [u32; 4])>]) -> Vec<[u32; 4]> {
    let mut rows = vec![[0; 4]; ROWS as usize];
    for (slot, b) in bound.iter().enumerate().take(MAX_SLOTS as usize) {
        if let Some((table, this)) = *b {
            rows[slot] = this;
            rows[TABLE_ROW as usize + slot][0] = table.wrapping_add(1);
        }
    }
    rows
}

/// Checks `bound` against the interfaces a program declares, by D3D11's
/// rule that a shader whose interface slots are not all bound is disabled
/// ("Each interface needs to be bound from the API before the shader is
/// usable", Microsoft's `dcl_interface` page): an unbound slot, or a bound
/// table the interface does not list, is an error that names the slot.
pub fn check(
    interfaces: &[InterfaceDecl],
    bound: &[Option<(u32, [u32; 4])>],
) -> Result<(), String> {
    for i in interfaces {
        for slot in i.first..i.first.saturating_add(i.count) {
            match bound.get(slot as usize).copied().flatten() {
                None => {
                    return Err(format!(
                        "interface slot {slot} (fp{}[{}]) has no class instance bound; \
                         D3D11 disables a shader whose interfaces are not all bound",
                        i.first,
                        slot - i.first
                    ))
                }
                Some((table, _)) if !i.tables.contains(&table) => {
                    return Err(format!(
                        "interface slot {slot} is bound to function table ft{table}, \
                         which fp{} does not list ({:?})",
                        i.first, i.tables
                    ))
                }
                Some(_) => {}
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iface() -> InterfaceDecl {
        InterfaceDecl {
            first: 1,
            count: 2,
            call_sites: 1,
            tables: vec![3, 5],
        }
    }

    #[test]
    fn rows_put_this_data_and_table_plus_one() {
        let r = rows(&[None, Some((5, [1, 2, 3, 4]))]);
        assert_eq!(r.len(), ROWS as usize);
        assert_eq!(r[0], [0; 4]);
        assert_eq!(r[1], [1, 2, 3, 4]);
        assert_eq!(r[TABLE_ROW as usize], [0; 4]);
        // Table 5 is stored as 6 so that 0 can mean "unbound".
        assert_eq!(r[TABLE_ROW as usize + 1], [6, 0, 0, 0]);
    }

    #[test]
    fn every_slot_of_every_interface_must_be_bound_to_a_listed_table() {
        let i = [iface()];
        let ok = [None, Some((3, [0; 4])), Some((5, [0; 4]))];
        assert_eq!(check(&i, &ok), Ok(()));
        let unbound = check(&i, &ok[..2]).unwrap_err();
        assert!(unbound.contains("slot 2 (fp1[1])"), "{unbound}");
        let wrong = check(&i, &[None, Some((4, [0; 4])), Some((5, [0; 4]))]).unwrap_err();
        assert!(wrong.contains("ft4"), "{wrong}");
        assert!(i[0].holds(2) && !i[0].holds(3) && !i[0].holds(0));
    }
}
