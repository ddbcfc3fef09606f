//! Stream-output declarations: elements named `SEMANTIC<index>.<mask>`,
//! resolved against the last stage's output signature into the runtime's
//! targets, with D3D11's limits checked.

use super::error::RunError;
use crate::ir::OutputElement;
use dxjit_runtime::pipeline::{SoElement, SoTarget, MAX_STREAMS};

/// Stream-output buffer slots (`D3D11_SO_BUFFER_SLOT_COUNT`).
pub const SO_SLOTS: u32 = 4;
/// The largest vertex stride (`D3D11_SO_BUFFER_MAX_STRIDE_IN_BYTES`).
pub const SO_MAX_STRIDE: u32 = 2048;

/// One element of a declaration: components of an output named by
/// semantic, or a gap (semantic `$SKIP`) that leaves its bytes alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoDeclEntry {
    /// The semantic name (any case), or `$SKIP`.
    pub semantic: String,
    /// The semantic index.
    pub semantic_index: u32,
    /// The first component (0 = x).
    pub start_component: u8,
    /// Components written, 1 to 4; `None` takes the signature element's.
    pub component_count: Option<u8>,
}

impl SoDeclEntry {
    /// Reads `SEMANTIC<index>[.mask]`, e.g. `SV_Position.xyzw`,
    /// `TEXCOORD1.yz`; the mask is contiguous components of `xyzw`.
    pub fn parse(text: &str) -> Result<SoDeclEntry, RunError> {
        let bad = |why: &str| RunError::Invalid(format!("stream-output element {text:?}: {why}"));
        let (name, mask) = match text.rsplit_once('.') {
            Some((n, m)) => (n, Some(m)),
            None => (text, None),
        };
        let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (semantic, index) = name.split_at(name.len() - digits);
        if semantic.is_empty() {
            return Err(bad("no semantic name"));
        }
        let semantic_index = if index.is_empty() {
            0
        } else {
            index.parse().map_err(|_| bad("semantic index too large"))?
        };
        let (start_component, component_count) = match mask {
            None => (0, None),
            Some(m) => {
                let comps: Vec<u8> = m
                    .chars()
                    .map(|c| "xyzw".find(c).map(|i| i as u8))
                    .collect::<Option<_>>()
                    .ok_or_else(|| bad("the mask takes x, y, z, w"))?;
                let first = *comps.first().ok_or_else(|| bad("empty mask"))?;
                if comps.iter().enumerate().any(|(i, &c)| c != first + i as u8) {
                    return Err(bad("the mask must be contiguous components in order"));
                }
                (first, Some(comps.len() as u8))
            }
        };
        Ok(SoDeclEntry {
            semantic: semantic.to_string(),
            semantic_index,
            start_component,
            component_count,
        })
    }

    fn is_gap(&self) -> bool {
        self.semantic.eq_ignore_ascii_case("$SKIP")
    }
}

/// Where a draw starts writing a stream-output buffer: the offset of
/// `ID3D11DeviceContext::SOSetTargets`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SoOffset {
    /// At this byte (0 for a buffer bound afresh).
    At(u32),
    /// Offset -1: after what earlier draws wrote, at the buffer's
    /// [`StreamOutput::filled_size`]; also what a buffer that stays bound
    /// between draws does.
    #[default]
    Append,
}

/// A stream-output buffer: where it is bound, what feeds it, and its memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamOutput {
    /// The slot, 0 to 3.
    pub slot: u32,
    /// The geometry-shader stream feeding it (0 without a geometry shader).
    pub stream: u32,
    /// Bytes from one vertex to the next.
    pub stride: u32,
    /// Each vertex's elements, packed in order from its first byte.
    pub elements: Vec<SoDeclEntry>,
    /// The buffer, as it starts.
    pub data: Vec<u8>,
    /// Where the draw's first vertex goes.
    pub offset: SoOffset,
    /// The buffer's filled size before the draw: the byte after the last
    /// vertex earlier draws wrote (D3D11 keeps it with the buffer for
    /// `DrawAuto` and offset -1); 0 for a new buffer.
    pub filled_size: u32,
}

impl StreamOutput {
    /// A buffer bound at byte 0 whose memory starts as `data`.
    pub fn new(
        slot: u32,
        stream: u32,
        stride: u32,
        elements: Vec<SoDeclEntry>,
        data: Vec<u8>,
    ) -> Self {
        StreamOutput {
            slot,
            stream,
            stride,
            elements,
            data,
            offset: SoOffset::At(0),
            filled_size: 0,
        }
    }

    /// Where the draw starts writing, in bytes.
    fn start(&self) -> usize {
        match self.offset {
            SoOffset::At(n) => n as usize,
            SoOffset::Append => self.filled_size as usize,
        }
    }
}

/// Checks the declarations against D3D11's rules and the signature, and
/// makes the runtime's targets (taking each buffer's memory).
pub(super) fn resolve(
    outputs: &mut [StreamOutput],
    signature: &[OutputElement],
) -> Result<Vec<SoTarget>, RunError> {
    let mut targets = Vec::with_capacity(outputs.len());
    for (i, o) in outputs.iter().enumerate() {
        let bad = |why: String| RunError::Invalid(format!("stream output slot {}: {why}", o.slot));
        if o.slot >= SO_SLOTS {
            return Err(bad(format!("slots are 0 to {}", SO_SLOTS - 1)));
        }
        if outputs[..i].iter().any(|p| p.slot == o.slot) {
            return Err(bad("declared twice".into()));
        }
        if o.stream as usize >= MAX_STREAMS {
            return Err(bad(format!("stream {}: streams are 0 to 3", o.stream)));
        }
        if o.stride == 0 || o.stride % 4 != 0 || o.stride > SO_MAX_STRIDE {
            return Err(bad(format!(
                "stride {}: a multiple of 4 from 4 to {SO_MAX_STRIDE}",
                o.stride
            )));
        }
        let mut elements = Vec::with_capacity(o.elements.len());
        for e in &o.elements {
            elements.push(element(e, o.stream, signature).map_err(&bad)?);
        }
        let bytes: u32 = elements.iter().map(|e| 4 * u32::from(e.count)).sum();
        if bytes > o.stride {
            return Err(bad(format!(
                "its elements take {bytes} bytes, more than the stride of {}",
                o.stride
            )));
        }
        targets.push(SoTarget {
            stream: o.stream,
            stride: o.stride,
            elements,
            data: Vec::new(),
            filled: o.start(),
        });
    }
    for (o, t) in outputs.iter_mut().zip(targets.iter_mut()) {
        t.data = std::mem::take(&mut o.data);
    }
    Ok(targets)
}

/// One entry resolved against the output signature of `stream`.
fn element(e: &SoDeclEntry, stream: u32, signature: &[OutputElement]) -> Result<SoElement, String> {
    if e.is_gap() {
        let count = e.component_count.unwrap_or(4);
        return Ok(SoElement {
            reg: None,
            component: 0,
            count,
        });
    }
    let name = e.semantic.to_uppercase();
    let sig = signature
        .iter()
        .find(|s| s.semantic == name && s.semantic_index == e.semantic_index && s.stream == stream)
        .ok_or_else(|| {
            format!(
                "{}{} is not an output of stream {stream}",
                e.semantic, e.semantic_index
            )
        })?;
    let (first, count) = match e.component_count {
        Some(n) => (e.start_component, n),
        None if sig.mask == 0 => {
            return Err(format!("{name}{} has no components", e.semantic_index))
        }
        None => {
            let first = sig.mask.trailing_zeros() as u8;
            (first, (8 - sig.mask.leading_zeros()) as u8 - first)
        }
    };
    let wanted = ((1u16 << count) - 1) << first;
    if first + count > 4 || wanted as u8 & !sig.mask != 0 {
        return Err(format!(
            "{}{}: components {first}..{} are not all in the output (mask {:#x})",
            e.semantic,
            e.semantic_index,
            first + count,
            sig.mask
        ));
    }
    Ok(SoElement {
        reg: Some(sig.reg),
        component: first,
        count,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_parse() {
        let e = SoDeclEntry::parse("TEXCOORD12.yz").unwrap();
        assert_eq!((e.semantic.as_str(), e.semantic_index), ("TEXCOORD", 12));
        assert_eq!((e.start_component, e.component_count), (1, Some(2)));
        let e = SoDeclEntry::parse("SV_Position").unwrap();
        assert_eq!((e.semantic_index, e.component_count), (0, None));
        assert!(SoDeclEntry::parse("COLOR.xz").is_err());
        assert!(SoDeclEntry::parse("COLOR.q").is_err());
    }
}
