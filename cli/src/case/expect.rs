//! Lowering `[[expect]]` tables: deciding the form and checking it against
//! the case's resources and action.

use super::error::CaseError;
use super::model::{Action, Area, Expect, Tolerance, UavDesc};
use super::parse::Lower;
use super::raw::RawExpect;
use super::texel;
use super::value::{Num, Value};

/// What an expectation may refer to.
pub(crate) struct Scope<'a> {
    /// The case's UAVs.
    pub uavs: &'a [UavDesc],
    /// The case's action.
    pub action: &'a Action,
    /// Whether the case has a `[vs]`.
    pub has_vs: bool,
    /// The case's stream-output buffers.
    pub stream_outputs: &'a [super::model::StreamOutputDesc],
}

/// The keys an expectation table sets.
fn keys(e: &RawExpect) -> Vec<&'static str> {
    [
        ("rejected", e.rejected.is_some()),
        ("message_contains", e.message_contains.is_some()),
        ("uav", e.uav.is_some()),
        ("uav_counter", e.uav_counter.is_some()),
        ("offset", e.offset.is_some()),
        ("data", e.data.is_some()),
        ("target", e.target.is_some()),
        ("pixel", e.pixel.is_some()),
        ("rect", e.rect.is_some()),
        ("sample", e.sample.is_some()),
        ("value", e.value.is_some()),
        ("vertex", e.vertex.is_some()),
        ("reg", e.reg.is_some()),
        ("semantic", e.semantic.is_some()),
        ("index", e.index.is_some()),
        ("abs", e.abs.is_some()),
        ("ulp", e.ulp.is_some()),
        ("stream_output", e.stream_output.is_some()),
        ("unordered", e.unordered.is_some()),
        ("stream", e.stream.is_some()),
        ("primitives_written", e.primitives_written.is_some()),
        ("primitives_needed", e.primitives_needed.is_some()),
        ("stream_output_filled", e.stream_output_filled.is_some()),
    ]
    .into_iter()
    .filter_map(|(k, set)| set.then_some(k))
    .collect()
}

/// An output register name of a vertex shader: `o#`, `oPos`, `oD#`, `oT#`,
/// `oFog`, `oPts` (any ASCII case).
fn is_output_reg(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let Some(rest) = lower.strip_prefix('o') else {
        return false;
    };
    let numbered = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    numbered(rest)
        || ["pos", "fog", "pts"].contains(&rest)
        || rest.strip_prefix('d').is_some_and(numbered)
        || rest.strip_prefix('t').is_some_and(numbered)
}

impl Lower<'_> {
    /// Expected elements as [`Value`]s.
    pub(crate) fn values(&self, nums: &[Num], what: &str) -> Result<Vec<Value>, CaseError> {
        nums.iter()
            .enumerate()
            .map(|(k, n)| n.value().map_err(|e| self.bad(format!("{what}[{k}]: {e}"))))
            .collect()
    }

    /// `abs` and `ulp`.
    fn tolerance(&self, e: &RawExpect, what: &str) -> Result<Tolerance, CaseError> {
        let abs = e.abs.unwrap_or(0.0);
        if abs.is_nan() || abs < 0.0 {
            return Err(self.bad(format!("{what}: abs must be a non-negative number")));
        }
        let ulp = e.ulp.unwrap_or(0.0);
        if !(0.0..=f64::from(u32::MAX)).contains(&ulp) || ulp.fract() != 0.0 {
            return Err(self.bad(format!("{what}: ulp must be a non-negative integer")));
        }
        Ok(Tolerance {
            abs,
            ulp: ulp as u32,
        })
    }

    /// One `[[expect]]`, number `k` in the file.
    pub(crate) fn expect(
        &self,
        e: RawExpect,
        k: usize,
        scope: &Scope<'_>,
    ) -> Result<Expect, CaseError> {
        let what = format!("[[expect]] #{k}");
        let what = what.as_str();
        let (form, allowed): (&str, &[&str]) = if e.rejected.is_some() {
            ("rejected", &["rejected", "message_contains"])
        } else if e.uav_counter.is_some() {
            ("uav_counter", &["uav_counter", "value"])
        } else if e.uav.is_some() {
            ("uav", &["uav", "offset", "data", "abs", "ulp"])
        } else if e.stream_output_filled.is_some() {
            ("stream_output_filled", &["stream_output_filled", "value"])
        } else if e.stream_output.is_some() {
            (
                "stream_output",
                &["stream_output", "offset", "data", "unordered", "abs", "ulp"],
            )
        } else if e.stream.is_some() {
            (
                "stream",
                &["stream", "primitives_written", "primitives_needed"],
            )
        } else if e.vertex.is_some() {
            (
                "vertex",
                &["vertex", "reg", "semantic", "index", "value", "abs", "ulp"],
            )
        } else if e.pixel.is_some() || e.rect.is_some() {
            (
                "target",
                &["target", "pixel", "rect", "sample", "value", "abs", "ulp"],
            )
        } else {
            return Err(self.bad(format!(
                "{what} is not a uav, uav_counter, target, vertex, stream_output, stream or rejected expectation"
            )));
        };
        if let Some(key) = keys(&e).into_iter().find(|k| !allowed.contains(k)) {
            return Err(self.bad(format!(
                "{what}: `{key}` does not belong in a {form} expectation"
            )));
        }
        let tolerance = self.tolerance(&e, what)?;
        match form {
            "rejected" if e.rejected == Some(true) => Ok(Expect::Rejected {
                message_contains: e.message_contains,
            }),
            "rejected" => Err(self.bad(format!("{what}: rejected = false is not an expectation"))),
            "uav" => self.expect_uav(e, what, scope, tolerance),
            "uav_counter" => self.expect_uav_counter(e, what, scope),
            "vertex" => self.expect_vertex(e, what, scope, tolerance),
            "stream_output" => self.expect_stream_output(e, what, scope, tolerance),
            "stream" => self.expect_stream_counts(e, what, scope),
            "stream_output_filled" => self.expect_stream_output_filled(e, what, scope),
            _ => self.expect_target(e, what, scope, tolerance),
        }
    }

    /// The uav form.
    fn expect_uav(
        &self,
        e: RawExpect,
        what: &str,
        scope: &Scope<'_>,
        tolerance: Tolerance,
    ) -> Result<Expect, CaseError> {
        let slot = e.uav.unwrap_or_default();
        let uav = scope.uavs.iter().find(|u| u.slot == slot).ok_or_else(|| {
            self.bad(format!(
                "{what} names uav {slot}, which the case does not bind"
            ))
        })?;
        let (offset, data) =
            self.expect_words(&e, what, &format!("uav {slot}"), uav.byte_size())?;
        Ok(Expect::Uav {
            slot,
            offset,
            data,
            tolerance,
        })
    }

    /// The `offset` and `data` of a uav or stream_output expectation,
    /// checked against the `size` bytes of the buffer it names (`name`,
    /// such as `uav 0`): a whole word offset and words within the buffer.
    pub(crate) fn expect_words(
        &self,
        e: &RawExpect,
        what: &str,
        name: &str,
        size: u64,
    ) -> Result<(u32, Vec<Value>), CaseError> {
        let offset = e.offset.unwrap_or(0);
        if !offset.is_multiple_of(4) {
            return Err(self.bad(format!("{what}: offset must be a multiple of 4")));
        }
        let nums = e
            .data
            .as_deref()
            .ok_or_else(|| self.bad(format!("{what} needs data")))?;
        let data = self.values(nums, &format!("{what}.data"))?;
        if u64::from(offset) + 4 * data.len() as u64 > size {
            return Err(self.bad(format!(
                "{what} reads past the end of {name} ({size} bytes)"
            )));
        }
        Ok((offset, data))
    }

    /// The uav_counter form: `value = [N]`, one word.
    fn expect_uav_counter(
        &self,
        e: RawExpect,
        what: &str,
        scope: &Scope<'_>,
    ) -> Result<Expect, CaseError> {
        let slot = e.uav_counter.unwrap_or_default();
        let bound = scope
            .uavs
            .iter()
            .any(|u| u.slot == slot && u.counter.is_some());
        if !bound {
            return Err(self.bad(format!(
                "{what} names the counter of uav {slot}, which the case does not give one"
            )));
        }
        let value = match self.values(
            e.value.as_deref().unwrap_or_default(),
            &format!("{what}.value"),
        )?[..]
        {
            [v @ Value::Word(_)] => v,
            _ => return Err(self.bad(format!("{what} needs value = [N], one integer"))),
        };
        Ok(Expect::UavCounter { slot, value })
    }

    /// The vertex form.
    fn expect_vertex(
        &self,
        e: RawExpect,
        what: &str,
        scope: &Scope<'_>,
        tolerance: Tolerance,
    ) -> Result<Expect, CaseError> {
        let vertex = e.vertex.unwrap_or_default();
        let count = match scope.action {
            Action::Vertices { count } => *count,
            Action::Draw(_) if scope.has_vs => 4,
            _ => return Err(self.bad(format!("{what}: vertex expectations need a [vs] that runs"))),
        };
        if vertex >= count {
            return Err(self.bad(format!(
                "{what}: vertex {vertex} out of range (the case runs {count})"
            )));
        }
        let output = self.io_ref(e.reg, e.semantic, e.index, what, is_output_reg)?;
        let value = self.values(
            e.value.as_deref().unwrap_or_default(),
            &format!("{what}.value"),
        )?;
        let value = <[Value; 4]>::try_from(value).map_err(|v| {
            self.bad(format!(
                "{what}.value must have 4 elements, has {}",
                v.len()
            ))
        })?;
        Ok(Expect::Vertex {
            vertex,
            output,
            value,
            tolerance,
        })
    }

    /// The target form.
    fn expect_target(
        &self,
        e: RawExpect,
        what: &str,
        scope: &Scope<'_>,
        tolerance: Tolerance,
    ) -> Result<Expect, CaseError> {
        let Action::Draw(draw) = scope.action else {
            return Err(self.bad(format!("{what}: target expectations need a [draw]")));
        };
        let target = e.target.unwrap_or(0);
        let t = draw
            .targets
            .get(target as usize)
            .ok_or_else(|| self.bad(format!("{what}: target {target} does not exist")))?;
        let area = match (e.pixel, e.rect) {
            (Some(p), None) if p[0] < t.width && p[1] < t.height => Area::Pixel(p),
            (Some(_), None) => return Err(self.bad(format!("{what}: pixel outside the target"))),
            (None, Some([x0, y0, x1, y1]))
                if x0 < x1 && x1 <= t.width && y0 < y1 && y1 <= t.height =>
            {
                Area::Rect([x0, y0, x1, y1])
            }
            (None, Some(_)) => {
                return Err(self.bad(format!("{what}: rect empty or outside the target")))
            }
            _ => return Err(self.bad(format!("{what} needs pixel or rect (not both)"))),
        };
        let value = self.values(
            e.value.as_deref().unwrap_or_default(),
            &format!("{what}.value"),
        )?;
        let n = texel::components(t.format);
        if value.len() != n {
            return Err(self.bad(format!(
                "{what}.value must have {n} elements ({} has {n} components)",
                texel::name(t.format)
            )));
        }
        if let Some(s) = e.sample.filter(|&s| s >= t.samples) {
            return Err(self.bad(format!(
                "{what}: sample {s} of a target of {} samples",
                t.samples
            )));
        }
        Ok(Expect::Target {
            target,
            area,
            sample: e.sample,
            value,
            tolerance,
        })
    }
}
