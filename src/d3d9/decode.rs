//! Decoding a D3D9 token stream into the typed [`Shader`] view.

use super::ctab;
use super::error::D3d9Error;
use super::opcodes::{self, Extra, COMMENT, END};
use super::predication;
use super::types::*;

/// Bit 13 of a parameter token: relative addressing.
const REL_BIT: u32 = 1 << 13;

struct Reader<'a> {
    tokens: &'a [u32],
    pos: usize,
    index: usize,
    start: usize,
}

impl Reader<'_> {
    fn err(&self, offset: usize, what: impl Into<String>) -> D3d9Error {
        D3d9Error::Decode {
            offset,
            index: self.index,
            what: what.into(),
        }
    }

    fn next(&mut self, limit: usize) -> Result<u32, D3d9Error> {
        if self.pos >= limit {
            return Err(self.err(
                self.pos,
                "instruction runs past its length or the end of the stream",
            ));
        }
        let t = self.tokens[self.pos];
        self.pos += 1;
        Ok(t)
    }
}

/// The register of a parameter token.
pub fn register_of(token: u32) -> Option<Register> {
    let ty = (token >> 28) & 7 | ((token >> 11) & 3) << 3;
    Some(Register {
        ty: RegType::from_number(ty)?,
        num: token & 0x7FF,
    })
}

fn swizzle_of(token: u32) -> [u8; 4] {
    let s = (token >> 16) & 0xFF;
    [0, 2, 4, 6].map(|sh| ((s >> sh) & 3) as u8)
}

/// Decodes a whole token stream (version token first, end token last).
pub fn decode(tokens: &[u32]) -> Result<Shader, D3d9Error> {
    let mut r = Reader {
        tokens,
        pos: 0,
        index: 0,
        start: 0,
    };
    let version_token = r.next(tokens.len())?;
    let version = parse_version(version_token)
        .ok_or_else(|| r.err(0, format!("bad version token {version_token:#010x}")))?;
    let mut items = Vec::new();
    loop {
        r.start = r.pos;
        let token = r
            .next(tokens.len())
            .map_err(|_| r.err(r.pos, "missing end token"))?;
        let opcode = (token & 0xFFFF) as u16;
        if opcode == END {
            break;
        }
        if opcode == COMMENT {
            let len = ((token >> 16) & 0x7FFF) as usize;
            let end = r.pos + len;
            let words = tokens
                .get(r.pos..end)
                .ok_or_else(|| r.err(r.start, "comment runs past the end"))?
                .to_vec();
            r.pos = end;
            items.push(Item::Comment(Comment {
                offset: r.start,
                words,
            }));
            r.index += 1;
            continue;
        }
        items.push(Item::Inst(decode_instruction(&mut r, token, version)?));
        r.index += 1;
    }
    if r.pos != tokens.len() {
        return Err(r.err(r.pos, "tokens after the end token"));
    }
    let ctab = items.iter().find_map(|i| match i {
        Item::Comment(c) => ctab::parse(&c.words),
        Item::Inst(_) => None,
    });
    Ok(Shader {
        version,
        items,
        ctab,
    })
}

fn parse_version(token: u32) -> Option<Version> {
    let kind = match token >> 16 {
        0xFFFE => ShaderKind::Vertex,
        0xFFFF => ShaderKind::Pixel,
        _ => return None,
    };
    let major = ((token >> 8) & 0xFF) as u8;
    let minor = (token & 0xFF) as u8;
    let ok = match (kind, major) {
        (ShaderKind::Vertex, 1) => minor <= 1,
        (ShaderKind::Pixel, 1) => minor <= 4,
        (_, 2) => minor <= 1 || minor == 0xFF,
        (_, 3) => minor == 0 || minor == 0xFF,
        _ => false,
    };
    ok.then_some(Version { kind, major, minor })
}

fn decode_instruction(
    r: &mut Reader,
    token: u32,
    version: Version,
) -> Result<Instruction, D3d9Error> {
    let opcode = (token & 0xFFFF) as u16;
    let info = opcodes::info(opcode)
        .ok_or_else(|| r.err(r.start, format!("unknown opcode {opcode:#x}")))?;
    let controls = ((token >> 16) & 0xFF) as u8;
    let sm2 = version.major >= 2;
    let predicated = sm2 && token & (1 << 28) != 0;
    let coissue = version.is_ps() && !sm2 && token & (1 << 30) != 0;
    if token & 0x8000_0000 != 0 {
        return Err(r.err(r.start, "instruction token has bit 31 set"));
    }
    let limit = if sm2 {
        let end = r.pos + ((token >> 24) & 0xF) as usize;
        if end > r.tokens.len() {
            return Err(r.err(r.start, "instruction length runs past the end"));
        }
        end
    } else {
        r.tokens.len()
    };
    let mut inst = Instruction {
        offset: r.start,
        opcode,
        controls,
        coissue,
        dst: None,
        src: Vec::new(),
        predicate: None,
        payload: Payload::None,
    };
    if info.extra == Extra::Dcl {
        inst.payload = Payload::Dcl(r.next(limit)?);
    }
    if info.dst {
        inst.dst = Some(decode_dst(r, limit, version)?);
    }
    if predicated {
        inst.predicate = Some(decode_predicate(r, opcode, limit, version)?);
    }
    if let Extra::Literal(n) = info.extra {
        let mut words = Vec::new();
        for _ in 0..n {
            words.push(r.next(limit)?);
        }
        inst.payload = Payload::Literal(words);
    }
    for _ in 0..opcodes::source_count(info, version) {
        let s = decode_src(r, limit, version)?;
        inst.src.push(s);
    }
    if sm2 && r.pos != limit {
        return Err(r.err(
            r.start,
            format!(
                "length field says {} tokens, operands use {}",
                limit - r.start - 1,
                r.pos - r.start - 1
            ),
        ));
    }
    Ok(inst)
}

fn param_register(r: &Reader, token: u32, at: usize) -> Result<Register, D3d9Error> {
    if token & 0x8000_0000 == 0 {
        return Err(r.err(at, format!("parameter token {token:#010x} lacks bit 31")));
    }
    register_of(token).ok_or_else(|| r.err(at, format!("unknown register type in {token:#010x}")))
}

fn decode_relative(
    r: &mut Reader,
    token: u32,
    limit: usize,
    version: Version,
) -> Result<Relative, D3d9Error> {
    if token & REL_BIT == 0 {
        return Ok(Relative::None);
    }
    if version.major < 2 {
        return Ok(Relative::ImplicitA0);
    }
    let at = r.pos;
    let t = r.next(limit)?;
    let reg = param_register(r, t, at)?;
    let modifier = SrcMod::from_number((t >> 24) & 0xF)
        .ok_or_else(|| r.err(at, "bad modifier on address token"))?;
    if t & REL_BIT != 0 {
        return Err(r.err(at, "nested relative addressing"));
    }
    Ok(Relative::Token(Box::new(SrcParam {
        reg,
        swizzle: swizzle_of(t),
        modifier,
        rel: Relative::None,
    })))
}

fn decode_dst(r: &mut Reader, limit: usize, version: Version) -> Result<DstParam, D3d9Error> {
    let at = r.pos;
    let t = r.next(limit)?;
    let reg = param_register(r, t, at)?;
    let shift = ((t >> 24) & 0xF) as i8;
    let shift = if shift >= 8 { shift - 16 } else { shift };
    let rel = decode_relative(r, t, limit, version)?;
    Ok(DstParam {
        reg,
        mask: ((t >> 16) & 0xF) as u8,
        modifiers: ((t >> 20) & 0xF) as u8,
        shift,
        rel,
    })
}

/// The predicate token of a predicated instruction: it follows the
/// destination (see [`super::predication`]).
fn decode_predicate(
    r: &mut Reader,
    opcode: u16,
    limit: usize,
    version: Version,
) -> Result<SrcParam, D3d9Error> {
    if !predication::may_be_predicated(opcode, version) {
        return Err(r.err(
            r.start,
            format!("opcode {opcode:#x} cannot be predicated (bit 28 set)"),
        ));
    }
    let at = r.pos;
    let p = decode_src(r, limit, version)?;
    match predication::predicate_problem(&p) {
        Some(what) => Err(r.err(at, what)),
        None => Ok(p),
    }
}

fn decode_src(r: &mut Reader, limit: usize, version: Version) -> Result<SrcParam, D3d9Error> {
    let at = r.pos;
    let t = r.next(limit)?;
    let reg = param_register(r, t, at)?;
    let modifier = SrcMod::from_number((t >> 24) & 0xF)
        .ok_or_else(|| r.err(at, format!("bad source modifier in {t:#010x}")))?;
    let rel = decode_relative(r, t, limit, version)?;
    Ok(SrcParam {
        reg,
        swizzle: swizzle_of(t),
        modifier,
        rel,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_ps_1_1_cnd() {
        let words = [
            0xffff0101, 0x00000051, 0xa00f0000, 0x3f800000, 0x00000000, 0x00000000, 0x00000000,
            0x00000040, 0xb00f0000, 0x00000001, 0x800f0000, 0xb0e40000, 0x00000008, 0x800f0001,
            0x80e40000, 0xa0e40000, 0x00000001, 0x80080000, 0x80ff0001, 0x00000050, 0x800f0000,
            0x80ff0000, 0xa0e40001, 0xa0e40002, 0x0000ffff,
        ];
        let s = decode(&words).expect("decodes");
        assert_eq!(s.version.name(), "ps_1_1");
        let insts: Vec<_> = s.instructions().collect();
        assert_eq!(insts.len(), 6);
        assert_eq!(
            insts[0].payload,
            Payload::Literal(vec![0x3f800000, 0, 0, 0])
        );
        assert_eq!(
            insts[1].dst.as_ref().map(|d| d.reg.ty),
            Some(RegType::AddrOrTexture)
        );
        assert_eq!(insts[5].src.len(), 3);
        assert_eq!(insts[5].src[0].swizzle, [3, 3, 3, 3]);
    }

    #[test]
    fn rejects_truncation_and_bad_length() {
        assert!(decode(&[]).is_err());
        assert!(decode(&[0xffff0200]).is_err());
        assert!(decode(&[0xffff0200, 0x03000001, 0x800f0000, 0x80e40000, 0xffff]).is_err());
        assert!(decode(&[0xffff0200, 0x0000ffff, 0]).is_err());
    }

    /// `(p0) add r1, r1, c3` as fxc writes it: the predicate follows the
    /// destination and the length field counts it.
    const PREDICATED_ADD: [u32; 7] = [
        0xfffe0300, 0x14000002, 0x800f0001, 0xb0e41000, 0x80e40001, 0xa0e40003, 0x0000ffff,
    ];

    #[test]
    fn reads_the_predicate_after_the_destination() {
        let s = decode(&PREDICATED_ADD).expect("decodes");
        let inst = s.instructions().next().expect("one");
        let p = inst.predicate.as_ref().expect("predicated");
        assert_eq!(p.reg.ty, RegType::Predicate);
        assert_eq!(inst.dst.as_ref().map(|d| d.reg.num), Some(1));
        let src: Vec<_> = inst.src.iter().map(|p| (p.reg.ty, p.reg.num)).collect();
        assert_eq!(src, [(RegType::Temp, 1), (RegType::Const, 3)]);
        assert_eq!(
            crate::d3d9::assemble("vs_3_0\n(p0) add r1, r1, c3").expect("assembles"),
            PREDICATED_ADD
        );
    }

    #[test]
    fn refuses_misplaced_and_misused_predicates() {
        let mut last = PREDICATED_ADD;
        last[3..6].rotate_left(1);
        assert!(decode(&last).is_err(), "predicate after the sources");
        let predicated_if = [
            0xfffe0300, 0x12000028, 0xb0e41000, 0xb0001000, 0x0000002b, 0xffff,
        ];
        assert!(decode(&predicated_if).is_err(), "bit 28 on if");
        assert!(crate::d3d9::assemble("vs_3_0\n(p0) if p0.x\nendif").is_err());
        assert!(crate::d3d9::assemble("vs_1_1\n(p0) mov r0, c0").is_err());
    }

    #[test]
    fn reads_relative_tokens() {
        let words = [
            0xfffe0200, 0x03000001, 0x800f0000, 0xa0e42003, 0xb0000000, 0x0000ffff,
        ];
        let s = decode(&words).expect("decodes");
        let inst = s.instructions().next().expect("one");
        match &inst.src[0].rel {
            Relative::Token(p) => assert_eq!(p.reg.ty, RegType::AddrOrTexture),
            other => panic!("unexpected {other:?}"),
        }
    }
}
