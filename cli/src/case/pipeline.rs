//! The `[pipeline]` action, `[[stream_output]]` buffers and the
//! expectations on them: `stream_output` contents and `stream` counts.

use dxjit_runtime::pipeline::Topology;

use super::error::CaseError;
use super::expect::Scope;
use super::model::{
    CbDesc, Expect, InputValues, PipelineDesc, RedrawDesc, StageDesc, StreamOutputDesc, Tolerance,
};
use super::parse::Lower;
use super::raw::{RawExpect, RawPipeline, RawRedraw, RawStreamOutput};

/// The topology a `topology` name denotes.
fn topology(name: &str) -> Option<Topology> {
    Some(match name {
        "point_list" => Topology::PointList,
        "line_list" => Topology::LineList,
        "line_strip" => Topology::LineStrip,
        "triangle_list" => Topology::TriangleList,
        "triangle_strip" => Topology::TriangleStrip,
        "line_list_adj" => Topology::LineListAdj,
        "line_strip_adj" => Topology::LineStripAdj,
        "triangle_list_adj" => Topology::TriangleListAdj,
        "triangle_strip_adj" => Topology::TriangleStripAdj,
        _ => {
            let n: u8 = name.strip_prefix("patch_list_")?.parse().ok()?;
            if !(1..=32).contains(&n) {
                return None;
            }
            Topology::PatchList(n)
        }
    })
}

impl Lower<'_> {
    /// `[pipeline]`, with the vertex shader's inputs given per vertex.
    pub(crate) fn pipeline(
        &self,
        raw: RawPipeline,
        vs: Option<&StageDesc>,
    ) -> Result<PipelineDesc, CaseError> {
        let topology = topology(&raw.topology).ok_or_else(|| {
            self.bad(format!(
                "[pipeline] topology {:?} is not one of point_list, line_list, line_strip, \
                 triangle_list, triangle_strip, *_adj, patch_list_1 .. patch_list_32",
                raw.topology
            ))
        })?;
        if let Some(i) = &raw.indices {
            if i.len() < raw.vertex_count as usize {
                return Err(self.bad(format!(
                    "[pipeline] draws {} indices but gives {}",
                    raw.vertex_count,
                    i.len()
                )));
            }
        }
        for (k, input) in vs.map_or(&[][..], |v| &v.inputs).iter().enumerate() {
            if !matches!(input.values, InputValues::PerVertex(_)) {
                return Err(self.bad(format!(
                    "[[vs.input]] #{k}: a [pipeline] case gives inputs as `data`"
                )));
            }
        }
        let instance_count = raw.instance_count.unwrap_or(1);
        let redraws = raw
            .redraw
            .into_iter()
            .enumerate()
            .map(|(k, r)| self.redraw(r, k, raw.vertex_count, instance_count))
            .collect::<Result<Vec<_>, _>>()?;
        if raw.indices.is_some() && redraws.iter().any(|r| r.vertex_count > raw.vertex_count) {
            return Err(self.bad(
                "[[pipeline.redraw]]: an indexed redraw draws at most the first draw's indices",
            ));
        }
        Ok(PipelineDesc {
            topology,
            vertex_count: raw.vertex_count,
            indices: raw.indices,
            instance_count,
            redraws,
        })
    }

    /// One `[[pipeline.redraw]]`, number `k`; counts default to the first
    /// draw's.
    fn redraw(
        &self,
        r: RawRedraw,
        k: usize,
        vertex_count: u32,
        instance_count: u32,
    ) -> Result<RedrawDesc, CaseError> {
        let what = format!("[[pipeline.redraw]] #{k}");
        let offsets = match r.offsets {
            None => None,
            Some(o) => Some(
                o.iter()
                    .map(|&x| self.so_offset(x, &format!("{what}.offsets")))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        let mut cbs = Vec::with_capacity(r.cb.len());
        for (j, cb) in r.cb.into_iter().enumerate() {
            if !["vs", "hs", "ds", "gs"].contains(&cb.stage.as_str()) {
                return Err(self.bad(format!(
                    "{what}.cb #{j}: stage {:?} is not vs, hs, ds or gs",
                    cb.stage
                )));
            }
            let data = self.words(&cb.data, &format!("{what}.cb #{j}.data"))?;
            cbs.push((
                cb.stage,
                CbDesc {
                    slot: cb.slot,
                    data,
                },
            ));
        }
        Ok(RedrawDesc {
            vertex_count: r.vertex_count.unwrap_or(vertex_count),
            instance_count: r.instance_count.unwrap_or(instance_count),
            offsets,
            cbs,
        })
    }

    /// A stream-output offset: bytes from 0, or -1 for "append" (`None`).
    fn so_offset(&self, x: i64, what: &str) -> Result<Option<u32>, CaseError> {
        match x {
            -1 => Ok(None),
            _ => u32::try_from(x)
                .map(Some)
                .map_err(|_| self.bad(format!("{what}: {x} is not -1 or a byte offset"))),
        }
    }

    /// `[[stream_output]]` tables; slots must be unique.
    pub(crate) fn stream_outputs(
        &self,
        raw: Vec<RawStreamOutput>,
    ) -> Result<Vec<StreamOutputDesc>, CaseError> {
        let mut out: Vec<StreamOutputDesc> = Vec::new();
        for (k, r) in raw.into_iter().enumerate() {
            if out.iter().any(|o| o.slot == r.slot) {
                return Err(self.bad(format!(
                    "[[stream_output]] #{k}: slot {} is bound twice",
                    r.slot
                )));
            }
            let fill = match r.fill {
                Some(n) => n
                    .word()
                    .map_err(|e| self.bad(format!("[[stream_output]] #{k}.fill: {e}")))?,
                None => 0,
            };
            let offset = self.so_offset(
                r.offset.unwrap_or(0),
                &format!("[[stream_output]] #{k}.offset"),
            )?;
            out.push(StreamOutputDesc {
                slot: r.slot,
                stream: r.stream.unwrap_or(0),
                stride: r.stride,
                size: r.size,
                fill,
                elements: r.elements,
                offset,
                filled_size: r.filled_size.unwrap_or(0),
            });
        }
        Ok(out)
    }

    /// The `stream_output` form.
    pub(crate) fn expect_stream_output(
        &self,
        e: RawExpect,
        what: &str,
        scope: &Scope<'_>,
        tolerance: Tolerance,
    ) -> Result<Expect, CaseError> {
        let slot = e.stream_output.unwrap_or_default();
        let so = scope
            .stream_outputs
            .iter()
            .find(|s| s.slot == slot)
            .ok_or_else(|| {
                self.bad(format!(
                    "{what} names stream_output {slot}, which the case does not bind"
                ))
            })?;
        let (offset, data) = self.expect_words(
            &e,
            what,
            &format!("stream_output {slot}"),
            u64::from(so.size),
        )?;
        let unordered_stride = match e.unordered {
            Some(true) => {
                let words = (so.stride / 4) as usize;
                if words == 0 || !data.len().is_multiple_of(words) {
                    return Err(self.bad(format!(
                        "{what}: an unordered expectation gives whole vertices of {} bytes",
                        so.stride
                    )));
                }
                Some(so.stride)
            }
            _ => None,
        };
        Ok(Expect::StreamOutput {
            slot,
            offset,
            data,
            tolerance,
            unordered_stride,
        })
    }

    /// The `stream_output_filled` form.
    pub(crate) fn expect_stream_output_filled(
        &self,
        e: RawExpect,
        what: &str,
        scope: &Scope<'_>,
    ) -> Result<Expect, CaseError> {
        let slot = e.stream_output_filled.unwrap_or_default();
        if !scope.stream_outputs.iter().any(|s| s.slot == slot) {
            return Err(self.bad(format!(
                "{what} names stream_output {slot}, which the case does not bind"
            )));
        }
        let value = match e.value.as_deref() {
            Some([n]) => n
                .word()
                .map_err(|err| self.bad(format!("{what}.value: {err}")))?,
            _ => return Err(self.bad(format!("{what} needs value = [bytes]"))),
        };
        Ok(Expect::StreamOutputFilled { slot, value })
    }

    /// The `stream` form.
    pub(crate) fn expect_stream_counts(
        &self,
        e: RawExpect,
        what: &str,
        scope: &Scope<'_>,
    ) -> Result<Expect, CaseError> {
        if !matches!(scope.action, super::model::Action::Pipeline(_)) {
            return Err(self.bad(format!("{what}: stream expectations need a [pipeline]")));
        }
        let stream = e.stream.unwrap_or_default();
        if stream > 3 {
            return Err(self.bad(format!("{what}: streams are 0 to 3")));
        }
        if e.primitives_written.is_none() && e.primitives_needed.is_none() {
            return Err(self.bad(format!(
                "{what} needs primitives_written or primitives_needed"
            )));
        }
        Ok(Expect::StreamCounts {
            stream,
            written: e.primitives_written,
            needed: e.primitives_needed,
        })
    }
}
