//! Declaration bodies: what follows a `dcl_*` mnemonic, as fxc or vkd3d
//! writes it.

use super::lex::{bracketed, literal, number, split_top, strip_prefix_ci, word};
use super::mnemonic::control;
use super::mnemonic::return_type_word;
use super::operand::{operand, Role};
use super::source::{fault, Res};
use crate::sm4::fields::{
    CONSTANT_BUFFER_DYNAMIC, DECLARATION_VALUE, GLOBAL_FLAGS, INTERFACE_ARRAY_SIZE,
    INTERFACE_TABLE_COUNT, INTERPOLATION_MODE, SAMPLER_MODE,
};
use crate::sm4::names::{
    self, InterpolationMode, SamplerMode, SystemValue, FXC_SYSVALS, SYSVAL_ALIASES,
};
use crate::sm4::opcodes::{Item, OpInfo, Opcode as O};
use crate::sm4::Syntax;

/// The comma-separated items of a statement's operand text, taken in turn.
pub struct Items<'a> {
    list: std::vec::IntoIter<&'a str>,
    end: &'a str,
}

impl<'a> Items<'a> {
    /// The items of `rest`.
    pub fn new(rest: &'a str) -> Self {
        Items {
            list: split_top(rest).into_iter(),
            end: &rest[rest.len()..],
        }
    }

    /// The next item, or an error at the end of the statement.
    pub fn next(&mut self, what: &str) -> Res<&'a str> {
        self.list
            .next()
            .ok_or_else(|| fault(self.end, format!("expected {what}")))
    }

    /// An error at the first item left over, if any.
    pub fn finish(mut self) -> Res<()> {
        match self.list.next() {
            Some(extra) => Err(fault(extra, format!("unexpected '{extra}'"))),
            None => Ok(()),
        }
    }
}

/// Encodes a declaration's operand text into `body` and `controls`.
pub fn declaration(
    info: &OpInfo,
    rest: &str,
    syntax: Syntax,
    controls: &mut u32,
    body: &mut Vec<u32>,
) -> Res<()> {
    let op = info.op;
    let decl_operand = |text: &str, body: &mut Vec<u32>| operand(text, Role::Decl, syntax, body);
    match op {
        O::DclGlobalFlags => {
            for flag in rest.split('|').map(str::trim).filter(|f| !f.is_empty()) {
                let bits = names::code(names::GLOBAL_FLAGS, flag)
                    .ok_or_else(|| fault(flag, format!("unknown global flag '{flag}'")))?;
                *controls |= control(GLOBAL_FLAGS, bits);
            }
            Ok(())
        }
        O::DclResource | O::DclUavTyped => {
            let r = rest.trim_start();
            if !r.starts_with('(') {
                return Err(fault(
                    r,
                    "expected the return types, as (float,float,float,float)",
                ));
            }
            let (inner, tail) = bracketed(r)?;
            let ret = return_type_word(inner)?;
            let mut items = Items::new(tail);
            decl_operand(items.next("a resource register")?, body)?;
            body.push(ret);
            items.finish()
        }
        O::DclConstantBuffer => {
            let mut items = Items::new(rest);
            decl_operand(items.next("a constant buffer register")?, body)?;
            for item in items.list.by_ref() {
                if item.eq_ignore_ascii_case("dynamicIndexed") {
                    *controls |= control(CONSTANT_BUFFER_DYNAMIC, 1);
                } else if !item.eq_ignore_ascii_case("immediateIndexed") {
                    return Err(fault(item, format!("unexpected '{item}'")));
                }
            }
            Ok(())
        }
        O::DclSampler => {
            let mut items = Items::new(rest);
            decl_operand(items.next("a sampler register")?, body)?;
            if let Ok(mode) = items.next("a sampler mode") {
                let mode = SamplerMode::from_name(mode)
                    .ok_or_else(|| fault(mode, format!("unknown sampler mode '{mode}'")))?;
                *controls |= control(SAMPLER_MODE, mode.code());
            }
            items.finish()
        }
        O::DclIndexRange => {
            let (reg, count) = match split_top(rest).as_slice() {
                [reg, count] => (*reg, *count),
                [one] => one
                    .rsplit_once(char::is_whitespace)
                    .ok_or_else(|| fault(one, "expected a register range and a count"))?,
                _ => return Err(fault(rest, "expected a register range and a count")),
            };
            decl_operand(reg, body)?;
            body.push(number(count)?);
            Ok(())
        }
        op if names::decl_keywords(op).is_some() => {
            let k = rest.trim();
            let value = names::decl_keywords(op)
                .and_then(|table| names::code(table, k))
                .ok_or_else(|| fault(k, format!("unknown {} '{k}'", info.name)))?;
            *controls |= control(DECLARATION_VALUE, value);
            Ok(())
        }
        op if names::is_decl_count(op) => {
            // The count is the whole control field (its size is checked by
            // the caller).
            *controls |= number(rest)?;
            Ok(())
        }
        O::DclHsMaxTessfactor => {
            let t = rest.trim();
            let value = match strip_prefix_ci(t, "l").filter(|r| r.starts_with('(')) {
                Some(r) => bracketed(r)?.0,
                None => t,
            };
            body.push(literal(value)?);
            Ok(())
        }
        op if op.is_io_decl() => input_output(op, rest, syntax, controls, body),
        O::DclIndexableTemp => {
            let mut items = Items::new(rest);
            let head = items.next("x#[size]")?;
            let (x, tail) = word(head);
            let id = strip_prefix_ci(x, "x").ok_or_else(|| fault(head, "expected x#[size]"))?;
            let (size, after) = bracketed(tail)?;
            if !after.is_empty() {
                return Err(fault(after, format!("unexpected '{after}'")));
            }
            body.extend([
                number(id)?,
                number(size)?,
                number(items.next("a component count")?)?,
            ]);
            items.finish()
        }
        O::DclFunctionBody => {
            body.push(numbered(rest.trim(), "fb")?);
            Ok(())
        }
        O::DclFunctionTable if rest.contains('=') => function_table(rest, body),
        O::DclInterface if rest.contains('=') => interface(rest, body),
        O::HsDecls | O::HsControlPointPhase | O::HsForkPhase | O::HsJoinPhase
            if !rest.trim().is_empty() =>
        {
            Err(fault(rest, format!("unexpected '{}'", rest.trim())))
        }
        _ => {
            let mut items = Items::new(rest);
            for item in info.items() {
                match item {
                    Item::Dst | Item::Src | Item::Scalar => {
                        decl_operand(items.next("a register")?, body)?
                    }
                    Item::Word => body.push(number(items.next("a number")?)?),
                    Item::Rest | Item::Custom => {
                        for item in items.list.by_ref() {
                            body.push(number(item)?);
                        }
                    }
                }
            }
            items.finish()
        }
    }
}

/// `dcl_input*`, `dcl_output*`: interpolation mode, register, system value.
fn input_output(
    op: O,
    rest: &str,
    syntax: Syntax,
    controls: &mut u32,
    body: &mut Vec<u32>,
) -> Res<()> {
    let mut rest = rest.trim_start();
    if op.is_pixel_input_decl() {
        let mut best: Option<(InterpolationMode, usize)> = None;
        for &mode in InterpolationMode::ALL {
            let name = mode.name();
            let after = strip_prefix_ci(rest, name);
            if after.is_some_and(|a| a.starts_with(char::is_whitespace))
                && best.is_none_or(|(_, len)| len < name.len())
            {
                best = Some((mode, name.len()));
            }
        }
        match best {
            Some((mode, len)) => {
                *controls |= control(INTERPOLATION_MODE, mode.code());
                rest = rest[len..].trim_start();
            }
            // fxc leaves out the (always constant) mode of system-generated
            // pixel inputs.
            None if op == O::DclInputPsSgv && syntax == Syntax::Fxc => {
                *controls |= control(INTERPOLATION_MODE, InterpolationMode::Constant.code())
            }
            None => {}
        }
    }
    let mut items = Items::new(rest);
    operand(items.next("a register")?, Role::Decl, syntax, body)?;
    if op.names_system_value() {
        let sv = items.next("a system value")?;
        let value = SystemValue::from_name(sv)
            .or_else(|| names::alias(FXC_SYSVALS, sv))
            .or_else(|| names::alias(SYSVAL_ALIASES, sv))
            .map_or_else(|| number(sv), |v| Ok(v.code()))?;
        body.push(value);
    }
    items.finish()
}

/// A number written bare or after a register prefix (`fb3`, `ft0`).
fn numbered(s: &str, prefix: &str) -> Res<u32> {
    number(strip_prefix_ci(s, prefix).unwrap_or(s))
}

/// The `{a, b, ...}` list after `=`, each item a `prefix`-numbered name.
fn braced_list<'a>(rest: &'a str, prefix: &str) -> Res<(&'a str, Vec<u32>)> {
    let (left, right) = rest
        .split_once('=')
        .ok_or_else(|| fault(rest, "expected '='"))?;
    let right = right.trim();
    if !right.starts_with('{') {
        return Err(fault(right, "expected '{' and a list"));
    }
    let (inner, tail) = bracketed(right)?;
    if !tail.trim().is_empty() {
        return Err(fault(tail, format!("unexpected '{}'", tail.trim())));
    }
    let list = split_top(inner)
        .into_iter()
        .map(|i| numbered(i, prefix))
        .collect::<Res<Vec<u32>>>()?;
    Ok((left.trim(), list))
}

/// `dcl_function_table ft0 = {fb0, fb1}`: id, count, bodies.
fn function_table(rest: &str, body: &mut Vec<u32>) -> Res<()> {
    let (left, list) = braced_list(rest, "fb")?;
    body.push(numbered(left, "ft")?);
    body.push(list.len() as u32);
    body.extend(list);
    Ok(())
}

/// `dcl_interface fp0[arraySize][callSites] = {ft0, ft1}`: id, call sites,
/// table count with the array size in the high half, tables.
fn interface(rest: &str, body: &mut Vec<u32>) -> Res<()> {
    let (left, list) = braced_list(rest, "ft")?;
    let (name, tail) = word(left);
    let id = numbered(name, "fp")?;
    let (array, tail) = bracketed(tail)?;
    let (sites, tail) = bracketed(tail)?;
    if !tail.trim().is_empty() {
        return Err(fault(tail, format!("unexpected '{}'", tail.trim())));
    }
    let array = number(array)?;
    let count = list.len() as u32;
    if array > INTERFACE_ARRAY_SIZE.max() || list.len() > INTERFACE_TABLE_COUNT.max() as usize {
        return Err(fault(left, "the interface array or table list is too long"));
    }
    body.extend([
        id,
        number(sites)?,
        INTERFACE_TABLE_COUNT.put(count) | INTERFACE_ARRAY_SIZE.put(array),
    ]);
    body.extend(list);
    Ok(())
}
