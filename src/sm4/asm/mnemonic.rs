//! Mnemonics: an opcode name and its suffixes, in the orders either dialect
//! writes them (`sample_l_aoffimmi(1,-2,0)_indexable(texture2d)` and
//! `sample_c_lz_aoffimmi_indexable(0,0,0)(texture2d)(float,float,float,float)`,
//! `resinfo_uint` and `resinfo_indexable(texture2d)(float,float,float,float)_uint`).

use super::lex::{bracketed, components, number, split_top, strip_prefix_ci};
use super::source::{fault, Res};
use crate::sm4::encoding::{ExtendedOpcodeType, ResInfoReturnType, TestBoolean, SAMPLE_INFO_UINT};
use crate::sm4::fields::{
    self, Field, AOFFIMMI, EXTENDED_RESOURCE_DIMENSION, EXTENDED_TYPE, INTERFACE_DYNAMIC,
    OPCODE_CONTROLS, PRECISE_MASK, RESINFO_RETURN_TYPE, RESOURCE_DIMENSION, SAMPLE_COUNT, SATURATE,
    STRUCTURE_STRIDE, SYNC_FLAGS, TEST_BOOLEAN, UAV_GLOBALLY_COHERENT, UAV_ORDER_PRESERVING,
};
use crate::sm4::names::{self, ResourceDimension, ReturnType, DIM_ALIASES};
use crate::sm4::opcodes::{OpInfo, Opcode};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The mnemonic's parts: the opcode row and what its suffixes encode.
pub struct Mnemonic {
    /// The opcode row.
    pub info: &'static OpInfo,
    /// Control bits 11-23 the suffixes set (shifted down by 11).
    pub controls: u32,
    /// Extended opcode tokens the suffixes ask for (without chaining bits).
    pub extended: Vec<u32>,
}

/// A suffix that takes the next parenthesised group as its argument.
#[derive(Clone, Copy)]
enum Pending {
    Offsets,
    Indexable,
    Precise,
    Samples,
}

/// Field `f` holding `value`, as control bits (shifted down by 11).
pub fn control(f: Field, value: u32) -> u32 {
    f.put(value) >> OPCODE_CONTROLS.shift
}

/// Precise-mask control bits of components `mask`.
pub fn precise_controls(mask: &[u8]) -> u32 {
    control(PRECISE_MASK, mask.iter().fold(0, |m, &c| m | 1 << c))
}

/// An extended opcode token of type `ty` with `fields` set.
fn extended_token(ty: ExtendedOpcodeType, fields: u32) -> u32 {
    EXTENDED_TYPE.put(ty.code()) | fields
}

/// The resource-return-type token of four floats.
fn float_return_type() -> u32 {
    let float = ReturnType::Float.code();
    extended_token(
        ExtendedOpcodeType::ResourceReturnType,
        (0..4).fold(0, |w, i| w | fields::extended_return_type(i).put(float)),
    )
}

/// Every opcode row by each of its names in lower case, rows in
/// [`Opcode::ALL`] order: built once, so a lookup reads one map entry per
/// place the name may end instead of every name of every opcode.
fn rows_by_name() -> &'static HashMap<String, Vec<&'static OpInfo>> {
    static ROWS: OnceLock<HashMap<String, Vec<&'static OpInfo>>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let mut rows: HashMap<String, Vec<&'static OpInfo>> = HashMap::new();
        for info in Opcode::ALL.iter().map(|o| o.info()) {
            for name in info.names() {
                let entry = rows.entry(name.to_ascii_lowercase()).or_default();
                if !entry.iter().any(|o| o.op == info.op) {
                    entry.push(info);
                }
            }
        }
        rows
    })
}

/// Parses a mnemonic (ignoring ASCII case). The opcode name is a prefix of
/// `m` followed by its end, `_` or `(`; the longest such name is tried
/// first, and the first whose suffixes parse wins.
pub fn parse_mnemonic(m: &str) -> Res<Mnemonic> {
    let lower = m.to_ascii_lowercase();
    let ends = lower
        .match_indices(['_', '('])
        .map(|(i, _)| i)
        .chain(std::iter::once(lower.len()));
    let mut ends: Vec<usize> = ends.collect();
    ends.reverse();
    let rows = rows_by_name();
    let mut first_error = None;
    for end in ends {
        for &info in rows.get(&lower[..end]).into_iter().flatten() {
            match suffixes(info, &m[end..]) {
                Ok(mn) => return Ok(mn),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
    }
    Err(first_error.unwrap_or_else(|| fault(m, format!("unknown instruction '{m}'"))))
}

/// Reads the suffixes after the opcode name.
fn suffixes(info: &'static OpInfo, rest: &str) -> Res<Mnemonic> {
    let op = info.op;
    let mut controls = 0;
    let mut extended = Vec::new();
    let mut pending: Vec<Pending> = Vec::new();
    let mut r = rest;
    while !r.is_empty() {
        if r.starts_with('(') {
            let (inner, tail) = bracketed(r)?;
            let group = &r[..r.len() - tail.len()];
            match pending.first().copied() {
                Some(p) => {
                    pending.remove(0);
                    argument(p, inner, group, &mut controls, &mut extended)?;
                }
                None if !info.decl => extended.push(extended_token(
                    ExtendedOpcodeType::ResourceReturnType,
                    return_type_word(inner)? << fields::extended_return_type(0).shift,
                )),
                None => return Err(fault(group, format!("unexpected '{group}'"))),
            }
            r = tail;
            continue;
        }
        let Some(body) = r.strip_prefix('_') else {
            return Err(fault(r, format!("unexpected '{r}' in the mnemonic")));
        };
        if let Some((dim, len)) = dimension(op, body) {
            controls |= control(RESOURCE_DIMENSION, dim.code());
            if dim.is_multisampled() {
                pending.push(Pending::Samples);
            }
            r = &body[len..];
            continue;
        }
        let end = body.find(['_', '(']).unwrap_or(body.len());
        let word = &r[..end + 1];
        let lower = word.to_ascii_lowercase();
        match lower.as_str() {
            "_nz" if info.test => controls |= control(TEST_BOOLEAN, TestBoolean::NonZero.code()),
            "_z" if info.test => {}
            "_sat" if !info.decl => controls |= control(SATURATE, 1),
            "_rcpfloat" if op == Opcode::Resinfo => {
                controls |= control(RESINFO_RETURN_TYPE, ResInfoReturnType::RcpFloat.code())
            }
            "_uint" if op == Opcode::SampleInfo => {
                controls |= control(RESINFO_RETURN_TYPE, SAMPLE_INFO_UINT)
            }
            "_uint" if op.has_return_type_suffix() => {
                controls |= control(RESINFO_RETURN_TYPE, ResInfoReturnType::Uint.code())
            }
            // sample_info's value 2, which no name has (resinfo's is `_uint`).
            "_2" if op == Opcode::SampleInfo => controls |= control(RESINFO_RETURN_TYPE, 2),
            // The return type no name has, as the disassembler prints it.
            "_3" if op.has_return_type_suffix() => {
                controls |= control(RESINFO_RETURN_TYPE, RESINFO_RETURN_TYPE.max())
            }
            "_glc" if op.is_uav_decl() => controls |= control(UAV_GLOBALLY_COHERENT, 1),
            "_opc" if op.is_uav_decl() => controls |= control(UAV_ORDER_PRESERVING, 1),
            "_dynamicindexed" if op == Opcode::DclInterface => {
                controls |= control(INTERFACE_DYNAMIC, 1)
            }
            "_aoffimmi" if !info.decl => pending.push(Pending::Offsets),
            "_indexable" if !info.decl => pending.push(Pending::Indexable),
            "_precise" if !info.decl => pending.push(Pending::Precise),
            w if op == Opcode::Sync => {
                controls |= SYNC_FLAGS
                    .iter()
                    .find(|(_, n)| n.eq_ignore_ascii_case(w))
                    .map(|(b, _)| *b >> OPCODE_CONTROLS.shift)
                    .ok_or_else(|| fault(word, format!("bad sync flag '{word}'")))?
            }
            _ => return Err(fault(word, format!("unknown suffix '{word}'"))),
        }
        r = &body[end..];
    }
    if let Some(p) = pending.first() {
        let what = match p {
            Pending::Offsets => "_aoffimmi needs (u,v,w)",
            Pending::Indexable => "_indexable needs (dimension)",
            Pending::Precise => "_precise needs (components)",
            Pending::Samples => "the multisample dimension needs (sample count)",
        };
        return Err(fault(rest, what));
    }
    let has = |ty: ExtendedOpcodeType| extended.iter().any(|e| EXTENDED_TYPE.get(*e) == ty.code());
    if has(ExtendedOpcodeType::ResourceDimension) && !has(ExtendedOpcodeType::ResourceReturnType) {
        extended.push(float_return_type());
    }
    Ok(Mnemonic {
        info,
        controls,
        extended,
    })
}

/// A resource dimension suffix of a resource or UAV declaration: its code
/// and the length of its name in `s`.
fn dimension(op: Opcode, s: &str) -> Option<(ResourceDimension, usize)> {
    if !op.is_resource_decl() {
        return None;
    }
    ResourceDimension::ALL
        .iter()
        .filter(|d| {
            strip_prefix_ci(s, d.name())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['_', '(']))
        })
        .max_by_key(|d| d.name().len())
        .map(|d| (*d, d.name().len()))
}

/// Applies a parenthesised argument to the suffix that asked for it.
fn argument(
    p: Pending,
    inner: &str,
    group: &str,
    controls: &mut u32,
    extended: &mut Vec<u32>,
) -> Res<()> {
    match p {
        Pending::Offsets => {
            let v: Vec<u32> = split_top(inner)
                .into_iter()
                .map(number)
                .collect::<Res<_>>()?;
            let [u, vv, w] = <[u32; 3]>::try_from(v)
                .map_err(|_| fault(group, "_aoffimmi needs three offsets"))?;
            let fits = |x: u32| (x as i32) >= -8 && (x as i32) <= 7;
            if !(fits(u) && fits(vv) && fits(w)) {
                return Err(fault(group, "_aoffimmi offsets lie in -8..7"));
            }
            let offsets = [u, vv, w]
                .iter()
                .zip(AOFFIMMI)
                .fold(0, |t, (&x, f)| t | f.put(x));
            extended.push(extended_token(ExtendedOpcodeType::SampleControls, offsets));
        }
        Pending::Indexable => {
            let parts = split_top(inner);
            let dim = parts
                .first()
                .and_then(|d| {
                    ResourceDimension::from_name(d).or_else(|| names::alias(DIM_ALIASES, d))
                })
                .ok_or_else(|| fault(group, format!("bad dimension '{inner}'")))?;
            let stride = match parts.get(1) {
                Some(s) => {
                    let value = strip_prefix_ci(s, "stride")
                        .map(str::trim_start)
                        .and_then(|v| v.strip_prefix('='))
                        .ok_or_else(|| fault(s, format!("expected stride=N, found '{s}'")))?;
                    number(value)?
                }
                None => 0,
            };
            if stride > STRUCTURE_STRIDE.max() {
                return Err(fault(group, "the stride does not fit 12 bits"));
            }
            extended.push(extended_token(
                ExtendedOpcodeType::ResourceDimension,
                EXTENDED_RESOURCE_DIMENSION.put(dim.code()) | STRUCTURE_STRIDE.put(stride),
            ));
        }
        Pending::Precise => {
            let mask = components(inner)
                .ok_or_else(|| fault(group, format!("bad precise mask '{inner}'")))?;
            *controls |= precise_controls(&mask);
        }
        Pending::Samples => {
            let n = number(inner)?;
            if n > SAMPLE_COUNT.max() {
                return Err(fault(group, "the sample count does not fit 7 bits"));
            }
            *controls |= control(SAMPLE_COUNT, n);
        }
    }
    Ok(())
}

/// A `(float,float,float,float)` return-type list as its token word.
pub fn return_type_word(s: &str) -> Res<u32> {
    let items = split_top(s);
    if items.len() > 4 || items.is_empty() {
        return Err(fault(s, format!("bad return type list '{s}'")));
    }
    let mut word = 0;
    for (i, t) in items.into_iter().enumerate() {
        let ty = ReturnType::from_name(t)
            .or_else(|| t.eq_ignore_ascii_case("sint").then_some(ReturnType::Sint))
            .ok_or_else(|| fault(t, format!("bad return type '{t}'")))?;
        word |= fields::return_type(i as u32).put(ty.code());
    }
    Ok(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(m: &str) -> (u16, u32, Vec<u32>) {
        let mn = parse_mnemonic(m).unwrap_or_else(|e| panic!("{m}: {e:?}"));
        (mn.info.code, mn.controls, mn.extended)
    }

    #[test]
    fn suffixes_in_both_orders() {
        assert_eq!(
            parse(
                "sample_c_lz_aoffimmi_indexable(-1,0,2)(texture2darray)(float,float,float,float)"
            ),
            (
                71,
                0,
                vec![1 | 0xf << 9 | 2 << 17, 2 | 8 << 6, 3 | 0x5555 << 6]
            )
        );
        assert_eq!(
            parse("sample_l_aoffimmi(1,-2,0)_indexable(texture2d)"),
            (
                72,
                0,
                vec![1 | 1 << 9 | 0xe << 13, 2 | 3 << 6, 3 | 0x5555 << 6]
            )
        );
        assert_eq!(
            parse("resinfo_indexable(texture2d)(float,float,float,float)_uint"),
            (61, 2, vec![2 | 3 << 6, 3 | 0x5555 << 6])
        );
        assert_eq!(parse("RESINFO_UINT"), (61, 2, vec![]));
        assert_eq!(
            parse("ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed)"),
            (167, 0, vec![2 | 12 << 6 | 16 << 11, 3 | 0x6666 << 6])
        );
        assert_eq!(parse("breakc_nz"), (3, 0x80, vec![]));
        assert_eq!(parse("breakp_z"), (3, 0, vec![]));
        assert_eq!(parse("sync_uglobal_g_t"), (190, 11, vec![]));
        assert_eq!(
            parse("dcl_resource_texture2dms(4)"),
            (88, 4 | 4 << 5, vec![])
        );
        assert_eq!(parse("dcl_uav_structured_opc"), (158, 0x1000, vec![]));
        assert_eq!(parse("dcl_interface_dynamicindexed"), (146, 1, vec![]));
        assert_eq!(parse("mad_sat"), (50, 4, vec![]));
        assert_eq!(parse("dcl_constantbuffer").0, 89);
    }

    #[test]
    fn every_name_of_every_opcode_reads_back() {
        for &op in Opcode::ALL {
            for name in op.info().names() {
                let mn = parse_mnemonic(name).unwrap_or_else(|e| panic!("{name}: {e:?}"));
                assert_eq!(mn.info.op, op, "{name}");
                assert_eq!((mn.controls, mn.extended.len()), (0, 0), "{name}");
            }
        }
    }

    #[test]
    fn bad_suffixes_are_errors() {
        assert!(parse_mnemonic("mov_nz").is_err());
        assert!(parse_mnemonic("sample_aoffimmi(1,2)").is_err());
        assert!(parse_mnemonic("sample_aoffimmi(9,0,0)").is_err());
        assert!(parse_mnemonic("sample_indexable(cube9)").is_err());
        assert!(parse_mnemonic("frobnicate").is_err());
        assert!(parse_mnemonic("dcl_temps(3)").is_err());
        assert!(parse_mnemonic("sample_indexable(texture2d)é").is_err());
    }
}
