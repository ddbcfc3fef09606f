//! Reading a case file: TOML → [`raw`](super::raw) shapes → the checked
//! [`Case`] model.

use std::collections::BTreeMap;
use std::path::Path;

use dxjit_runtime::format::Format;
use dxjit_runtime::sampler::{Address, Compare, Filter, MagFilter, MipFilter, Reduction};

use super::error::CaseError;
use super::model::{
    Action, Case, CbDesc, ClassInstanceDesc, DrawDesc, InputDesc, InputValues, IoRef, SamplerDesc,
    ShaderCode, SrvDesc, SrvKind, StageDesc, TargetDesc, UavDesc, UavDimension, UavKind,
};
use super::raw::{
    RawCase, RawDispatch, RawDraw, RawInput, RawPipeline, RawSampler, RawSrv, RawStage, RawUav,
    RawVertices,
};
use super::value::Num;
use super::{expect, stage, texel};
use dxjit::d3d9::bump::BumpEnv;

/// Reads and checks the case file at `path`.
pub fn parse_case(path: &Path) -> Result<Case, CaseError> {
    let text = std::fs::read_to_string(path).map_err(|source| CaseError::Io {
        case: path.to_path_buf(),
        file: path.to_path_buf(),
        source,
    })?;
    parse_case_str(&text, path)
}

/// Checks the case text `text` as if read from `path` (which names the case
/// in errors and anchors a shader `file`).
pub fn parse_case_str(text: &str, path: &Path) -> Result<Case, CaseError> {
    let raw: RawCase = toml::from_str(text).map_err(|e| {
        let line = e
            .span()
            .and_then(|span| text.get(..span.start))
            .map(|before| before.matches('\n').count() + 1);
        let message = e.message().trim_end();
        CaseError::Toml {
            path: path.to_path_buf(),
            message: match line {
                Some(line) => format!("line {line}: {message}"),
                None => message.to_string(),
            },
        }
    })?;
    Lower { path }.case(raw)
}

/// The action tables of a case, as read.
struct Actions {
    /// `[dispatch]`.
    dispatch: Option<RawDispatch>,
    /// `[draw]`.
    draw: Option<RawDraw>,
    /// `[vertices]`.
    vertices: Option<RawVertices>,
    /// `[pipeline]`.
    pipeline: Option<RawPipeline>,
}

/// Lowering state: the file, for errors and relative shader paths.
pub(crate) struct Lower<'a> {
    /// The case file.
    pub path: &'a Path,
}

impl Lower<'_> {
    /// A [`CaseError::Invalid`] about this file.
    pub(crate) fn bad(&self, what: impl Into<String>) -> CaseError {
        CaseError::Invalid {
            path: self.path.to_path_buf(),
            what: what.into(),
        }
    }

    /// A data array as memory words.
    pub(crate) fn words(&self, nums: &[Num], what: &str) -> Result<Vec<u32>, CaseError> {
        nums.iter()
            .enumerate()
            .map(|(k, n)| n.word().map_err(|e| self.bad(format!("{what}[{k}]: {e}"))))
            .collect()
    }

    /// A four-element vector as memory words.
    pub(crate) fn vec4(&self, nums: &[Num], what: &str) -> Result<[u32; 4], CaseError> {
        let words = self.words(nums, what)?;
        <[u32; 4]>::try_from(words)
            .map_err(|w| self.bad(format!("{what} must have 4 elements, has {}", w.len())))
    }

    /// A single word (`fill`), default 0.
    fn word(&self, num: Option<Num>, what: &str) -> Result<u32, CaseError> {
        num.map_or(Ok(0), |n| {
            n.word().map_err(|e| self.bad(format!("{what}: {e}")))
        })
    }

    /// A register number used as a table key.
    fn register(&self, key: &str, table: &str) -> Result<u32, CaseError> {
        key.parse()
            .map_err(|_| self.bad(format!("[{table}] key {key:?} is not a register number")))
    }

    /// The whole case.
    fn case(&self, raw: RawCase) -> Result<Case, CaseError> {
        match raw.format {
            Some(1) => {}
            Some(f) => return Err(self.bad(format!("format = {f} is not supported (only 1)"))),
            None => return Err(self.bad("format = 1 is missing")),
        }
        let later = raw.gs.is_some() || raw.hs.is_some() || raw.ds.is_some();
        if raw.cs.is_some() && (raw.vs.is_some() || raw.ps.is_some() || later) {
            return Err(self.bad("[cs] cannot be combined with [vs]/[ps]/[gs]/[hs]/[ds]"));
        }
        if (later || !raw.stream_output.is_empty()) && raw.pipeline.is_none() {
            return Err(self.bad("[gs], [hs], [ds] and [[stream_output]] need [pipeline]"));
        }
        if raw.cs.is_none() && raw.vs.is_none() && raw.ps.is_none() {
            return Err(self.bad("no shader table ([cs], [vs] or [ps])"));
        }
        let per_vertex = raw.vertices.is_some() || raw.pipeline.is_some();
        let lower_stage = |s: Option<RawStage>, name: &str| {
            s.map(|s| self.stage(s, name, per_vertex)).transpose()
        };
        let cs = lower_stage(raw.cs, "cs")?;
        let vs = lower_stage(raw.vs, "vs")?;
        let ps = lower_stage(raw.ps, "ps")?;
        let gs = lower_stage(raw.gs, "gs")?;
        let hs = lower_stage(raw.hs, "hs")?;
        let ds = lower_stage(raw.ds, "ds")?;
        let stream_outputs = self.stream_outputs(raw.stream_output)?;
        let mut uavs: Vec<UavDesc> = Vec::new();
        for (k, u) in raw.uav.into_iter().enumerate() {
            let u = self.uav(u, k)?;
            if uavs.iter().any(|o| o.slot == u.slot) {
                return Err(self.bad(format!("[[uav]] #{k}: slot {} is bound twice", u.slot)));
            }
            uavs.push(u);
        }
        let all_rejected =
            !raw.expect.is_empty() && raw.expect.iter().all(|e| e.rejected == Some(true));
        let actions = Actions {
            dispatch: raw.dispatch,
            draw: raw.draw,
            vertices: raw.vertices,
            pipeline: raw.pipeline,
        };
        let stages = [cs.is_some(), vs.is_some(), ps.is_some()];
        let action = self.action(actions, stages, vs.as_ref(), all_rejected)?;
        if raw.expect.is_empty() {
            return Err(self.bad("no [[expect]]"));
        }
        let scope = expect::Scope {
            uavs: &uavs,
            action: &action,
            has_vs: vs.is_some(),
            stream_outputs: &stream_outputs,
        };
        let expects = raw
            .expect
            .into_iter()
            .enumerate()
            .map(|(k, e)| self.expect(e, k, &scope))
            .collect::<Result<Vec<_>, _>>()?;
        let name = raw.name.unwrap_or_else(|| {
            self.path
                .file_stem()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
        });
        let case = Case {
            name,
            source: raw.source,
            path: self.path.to_path_buf(),
            cs,
            vs,
            ps,
            gs,
            hs,
            ds,
            stream_outputs,
            uavs,
            action,
            expects,
        };
        if !all_rejected {
            for (table, s) in case.stages() {
                match stage::declared_stage(&s.code) {
                    Some(found) if found != table => {
                        return Err(self.bad(format!("[{table}] holds a {found} shader")))
                    }
                    _ => {}
                }
            }
        }
        Ok(case)
    }

    /// `[dispatch]`, `[draw]` or `[vertices]`, checked against which of
    /// cs, vs, ps are present (`stages`) and the vertex shader's inputs.
    fn action(
        &self,
        actions: Actions,
        stages: [bool; 3],
        vs: Option<&StageDesc>,
        all_rejected: bool,
    ) -> Result<Action, CaseError> {
        let Actions {
            dispatch,
            draw,
            vertices,
            pipeline,
        } = actions;
        let [has_cs, has_vs, has_ps] = stages;
        let count = [
            dispatch.is_some(),
            draw.is_some(),
            vertices.is_some(),
            pipeline.is_some(),
        ]
        .iter()
        .filter(|x| **x)
        .count();
        if count > 1 {
            return Err(
                self.bad("more than one action ([dispatch], [draw], [vertices], [pipeline])")
            );
        }
        if let Some(p) = pipeline {
            if !has_vs || has_ps {
                return Err(self.bad("[pipeline] needs [vs] and no [ps]"));
            }
            return self.pipeline(p, vs).map(Action::Pipeline);
        }
        if let Some(d) = dispatch {
            if !has_cs {
                return Err(self.bad("[dispatch] needs [cs]"));
            }
            return Ok(Action::Dispatch { groups: d.groups });
        }
        if let Some(d) = draw {
            if !has_ps {
                return Err(self.bad("[draw] needs [ps]"));
            }
            return self.draw(d).map(Action::Draw);
        }
        if let Some(v) = vertices {
            if !has_vs || has_ps {
                return Err(self.bad("[vertices] needs [vs] alone"));
            }
            if let Some(vs) = vs {
                for (k, input) in vs.inputs.iter().enumerate() {
                    match &input.values {
                        InputValues::PerVertex(d) if d.len() >= v.count as usize => {}
                        InputValues::PerVertex(d) => {
                            return Err(self.bad(format!(
                                "[[vs.input]] #{k}: data gives {} vectors for {} vertices",
                                d.len(),
                                v.count
                            )))
                        }
                        _ => {
                            return Err(self.bad(format!(
                                "[[vs.input]] #{k}: a [vertices] case gives inputs as `data`"
                            )))
                        }
                    }
                }
            }
            return Ok(Action::Vertices { count: v.count });
        }
        if all_rejected {
            Ok(Action::None)
        } else {
            Err(self.bad("no action ([dispatch], [draw] or [vertices])"))
        }
    }

    /// One shader table.
    fn stage(&self, raw: RawStage, table: &str, per_vertex: bool) -> Result<StageDesc, CaseError> {
        let given: Vec<&str> = [
            ("asm", raw.asm.is_some()),
            ("dwords", raw.dwords.is_some()),
            ("hex", raw.hex.is_some()),
            ("file", raw.file.is_some()),
        ]
        .into_iter()
        .filter_map(|(k, set)| set.then_some(k))
        .collect();
        if given.len() != 1 {
            return Err(self.bad(format!(
                "[{table}] needs exactly one of asm, dwords, hex, file (has {})",
                if given.is_empty() {
                    "none".to_string()
                } else {
                    given.join(", ")
                }
            )));
        }
        let code = if let Some(asm) = raw.asm {
            ShaderCode::Asm(asm)
        } else if let Some(dwords) = raw.dwords {
            ShaderCode::Bytes(dwords.iter().flat_map(|w| w.to_le_bytes()).collect())
        } else if let Some(hex) = raw.hex {
            ShaderCode::Bytes(self.hex(&hex, table)?)
        } else {
            let file = raw.file.unwrap_or_default();
            let full = self.path.parent().unwrap_or(Path::new("")).join(&file);
            let bytes = std::fs::read(&full).map_err(|source| CaseError::Io {
                case: self.path.to_path_buf(),
                file: full,
                source,
            })?;
            ShaderCode::Bytes(bytes)
        };
        let cbs = raw
            .cb
            .into_iter()
            .enumerate()
            .map(|(k, cb)| {
                let data = self.words(&cb.data, &format!("[[{table}.cb]] #{k}.data"))?;
                Ok(CbDesc {
                    slot: cb.slot,
                    data,
                })
            })
            .collect::<Result<Vec<_>, CaseError>>()?;
        let mut c = BTreeMap::new();
        for (key, v) in &raw.c {
            let reg = self.register(key, &format!("{table}.c"))?;
            c.insert(reg, self.vec4(v, &format!("{table}.c{reg}"))?);
        }
        let mut i = BTreeMap::new();
        for (key, v) in &raw.i {
            let reg = self.register(key, &format!("{table}.i"))?;
            if v.iter().any(|n| matches!(n, Num::Float(_))) {
                return Err(self.bad(format!("{table}.i{reg} must hold integers")));
            }
            i.insert(
                reg,
                self.vec4(v, &format!("{table}.i{reg}"))?.map(|w| w as i32),
            );
        }
        let mut b = BTreeMap::new();
        for (key, v) in &raw.b {
            b.insert(self.register(key, &format!("{table}.b"))?, *v);
        }
        let srvs = raw
            .srv
            .into_iter()
            .enumerate()
            .map(|(k, s)| self.srv(s, &format!("[[{table}.srv]] #{k}")))
            .collect::<Result<Vec<_>, _>>()?;
        let samplers = raw
            .sampler
            .into_iter()
            .enumerate()
            .map(|(k, s)| self.sampler(s, &format!("[[{table}.sampler]] #{k}")))
            .collect::<Result<Vec<_>, _>>()?;
        let inputs = raw
            .input
            .into_iter()
            .enumerate()
            .map(|(k, s)| self.input(s, &format!("[[{table}.input]] #{k}"), per_vertex))
            .collect::<Result<Vec<_>, _>>()?;
        let class_instances = raw
            .class_instance
            .into_iter()
            .map(|c| ClassInstanceDesc {
                slot: c.slot,
                instance: dxjit::ClassInstance {
                    table: c.table,
                    cb: c.cb,
                    cb_offset: c.cb_offset,
                    texture: c.texture,
                    sampler: c.sampler,
                },
            })
            .collect();
        Ok(StageDesc {
            code,
            cbs,
            c,
            i,
            b,
            srvs,
            samplers,
            inputs,
            class_instances,
        })
    }

    /// A `hex` shader string (whitespace ignored).
    fn hex(&self, hex: &str, table: &str) -> Result<Vec<u8>, CaseError> {
        let digits: Vec<u32> = hex
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| {
                c.to_digit(16)
                    .ok_or_else(|| self.bad(format!("[{table}].hex: {c:?} is not a hex digit")))
            })
            .collect::<Result<_, _>>()?;
        if !digits.len().is_multiple_of(2) {
            return Err(self.bad(format!("[{table}].hex has an odd number of digits")));
        }
        Ok(digits.chunks(2).map(|p| (p[0] * 16 + p[1]) as u8).collect())
    }

    /// A format name.
    fn format(&self, name: &str, what: &str) -> Result<Format, CaseError> {
        texel::by_name(name).ok_or_else(|| self.bad(format!("{what}: unknown format {name:?}")))
    }

    /// A format name of a render target or typed UAV: one shaders can write.
    fn writable_format(&self, name: &str, what: &str) -> Result<Format, CaseError> {
        let format = self.format(name, what)?;
        if !format.is_writable() {
            return Err(self.bad(format!("{what}: shaders cannot write {name}")));
        }
        Ok(format)
    }

    /// Refuses a key that the resource's type does not have.
    fn only_if(&self, given: bool, allowed: bool, key: &str, what: &str) -> Result<(), CaseError> {
        if given && !allowed {
            Err(self.bad(format!("{what}: `{key}` does not apply to this type")))
        } else {
            Ok(())
        }
    }

    /// One `[[S.srv]]`.
    fn srv(&self, raw: RawSrv, what: &str) -> Result<SrvDesc, CaseError> {
        let kind = match raw.kind.as_str() {
            "raw" => SrvKind::Raw,
            "structured" => SrvKind::Structured {
                stride: raw
                    .stride
                    .ok_or_else(|| self.bad(format!("{what}: structured needs a stride")))?,
            },
            "buffer" => SrvKind::Buffer,
            "texture1d" => SrvKind::Texture1d,
            "texture1darray" => SrvKind::Texture1dArray,
            "texture2d" => SrvKind::Texture2d,
            "texture2darray" => SrvKind::Texture2dArray,
            "texture3d" => SrvKind::Texture3d,
            "texturecube" => SrvKind::TextureCube,
            "texturecubearray" => SrvKind::TextureCubeArray,
            "texture2dms" => SrvKind::Texture2dMs,
            "texture2dmsarray" => SrvKind::Texture2dMsArray,
            other => return Err(self.bad(format!("{what}: unknown type {other:?}"))),
        };
        let multisampled = matches!(kind, SrvKind::Texture2dMs | SrvKind::Texture2dMsArray);
        let texture = kind.is_typed() && kind != SrvKind::Buffer;
        let two_d = matches!(
            kind,
            SrvKind::Texture2d
                | SrvKind::Texture2dArray
                | SrvKind::Texture3d
                | SrvKind::TextureCube
                | SrvKind::TextureCubeArray
                | SrvKind::Texture2dMs
                | SrvKind::Texture2dMsArray
        );
        self.only_if(
            raw.stride.is_some(),
            matches!(kind, SrvKind::Structured { .. }),
            "stride",
            what,
        )?;
        self.only_if(raw.size.is_some(), !kind.is_typed(), "size", what)?;
        self.only_if(raw.width.is_some(), kind.is_typed(), "width", what)?;
        self.only_if(raw.format.is_some(), kind.is_typed(), "format", what)?;
        self.only_if(raw.height.is_some(), two_d, "height", what)?;
        self.only_if(
            raw.depth.is_some(),
            kind == SrvKind::Texture3d,
            "depth",
            what,
        )?;
        self.only_if(
            raw.array_size.is_some(),
            matches!(
                kind,
                SrvKind::Texture1dArray
                    | SrvKind::Texture2dArray
                    | SrvKind::TextureCubeArray
                    | SrvKind::Texture2dMsArray
            ),
            "array_size",
            what,
        )?;
        self.only_if(raw.mips.is_some(), texture && !multisampled, "mips", what)?;
        self.only_if(raw.samples.is_some(), multisampled, "samples", what)?;
        let format = match (&raw.format, kind.is_typed()) {
            (Some(name), _) => Some(self.format(name, what)?),
            (None, true) => {
                return Err(self.bad(format!("{what}: a {} view needs a format", raw.kind)))
            }
            (None, false) => None,
        };
        let dims = [raw.width, raw.height, raw.depth, raw.array_size, raw.mips];
        if dims.contains(&Some(0)) {
            return Err(self.bad(format!("{what}: dimensions must be at least 1")));
        }
        let mips = raw.mips.unwrap_or(1);
        if mips > 1 && raw.width.is_none() {
            return Err(self.bad(format!("{what}: a texture with mips needs a width")));
        }
        if let Some(f) = format.filter(|f| f.is_block_compressed()) {
            if raw.width.is_none() {
                return Err(self.bad(format!("{what}: a {} texture needs a width", f.name())));
            }
            if matches!(
                kind,
                SrvKind::Buffer
                    | SrvKind::Texture1d
                    | SrvKind::Texture2dMs
                    | SrvKind::Texture2dMsArray
            ) {
                return Err(self.bad(format!(
                    "{what}: {} is for 2D, 3D and cube textures",
                    f.name()
                )));
            }
        }
        let srv = SrvDesc {
            slot: raw.slot,
            kind,
            format,
            size: raw.size,
            width: raw.width,
            height: raw.height.unwrap_or(1),
            depth: raw.depth.unwrap_or(1),
            array_size: raw.array_size.unwrap_or(1),
            mips,
            samples: raw.samples.unwrap_or(1),
            data: self.words(&raw.data, &format!("{what}.data"))?,
            fill: self.word(raw.fill, &format!("{what}.fill"))?,
        };
        self.fits(srv.data.len(), srv.byte_size(), what)?;
        Ok(srv)
    }

    /// Refuses `data` larger than its resource.
    fn fits(&self, words: usize, bytes: u64, what: &str) -> Result<(), CaseError> {
        if words as u64 * 4 > bytes {
            Err(self.bad(format!(
                "{what}: data ({} bytes) is larger than the resource ({bytes} bytes)",
                words * 4
            )))
        } else {
            Ok(())
        }
    }

    /// Four numbers as f32 (all 0 when not given).
    fn floats4(&self, nums: Option<&[Num]>, what: &str) -> Result<[f32; 4], CaseError> {
        let Some(nums) = nums else {
            return Ok([0.0; 4]);
        };
        <[f32; 4]>::try_from(nums.iter().map(|n| n.as_f64() as f32).collect::<Vec<_>>())
            .map_err(|_| self.bad(format!("{what} must have 4 elements")))
    }

    /// One `[[S.sampler]]`.
    fn sampler(&self, raw: RawSampler, what: &str) -> Result<SamplerDesc, CaseError> {
        let pick =
            |value: Option<&String>, key: &str, names: &[&str]| -> Result<usize, CaseError> {
                match value {
                    None => Ok(0),
                    Some(v) => names
                        .iter()
                        .position(|n| n == v)
                        .ok_or_else(|| self.bad(format!("{what}.{key}: unknown value {v:?}"))),
                }
            };
        let filter_names = ["point", "linear", "anisotropic"];
        let filters = [Filter::Point, Filter::Linear, Filter::Anisotropic];
        let filter = filters[pick(raw.filter.as_ref(), "filter", &filter_names)?];
        let min = raw.min_filter.as_ref();
        let filter = match min {
            Some(_) => filters[pick(min, "min_filter", &filter_names)?],
            None => filter,
        };
        let mags = [MagFilter::Point, MagFilter::Linear, MagFilter::Anisotropic];
        let mag_filter = match raw.mag_filter.as_ref().or(raw.filter.as_ref()) {
            None => MagFilter::AsMin,
            Some(name) => mags[pick(Some(name), "mag_filter", &filter_names)?],
        };
        let max_anisotropy = raw.max_anisotropy.unwrap_or(1);
        if !(1..=16).contains(&max_anisotropy) {
            return Err(self.bad(format!("{what}.max_anisotropy must be 1 to 16")));
        }
        let reductions = [Reduction::Standard, Reduction::Minimum, Reduction::Maximum];
        let reduction = reductions[pick(
            raw.reduction.as_ref(),
            "reduction",
            &["standard", "minimum", "maximum"],
        )?];
        if reduction != Reduction::Standard && raw.compare.is_some() {
            return Err(self.bad(format!(
                "{what}: a minimum or maximum reduction cannot compare"
            )));
        }
        let float = |n: Option<Num>, default: f32| n.map_or(default, |n| n.as_f64() as f32);
        let min_lod = match (raw.min_lod, raw.max_mip_level) {
            (Some(_), Some(_)) => {
                return Err(self.bad(format!(
                    "{what}: min_lod and max_mip_level both set the lowest mip"
                )))
            }
            (None, Some(level)) => level as f32,
            (min_lod, None) => float(min_lod, 0.0),
        };
        let mips = [MipFilter::None, MipFilter::Point, MipFilter::Linear];
        let mip_filter = mips[pick(
            raw.mip_filter.as_ref(),
            "mip_filter",
            &["none", "point", "linear"],
        )?];
        let modes = [
            Address::Wrap,
            Address::Mirror,
            Address::Clamp,
            Address::Border,
            Address::MirrorOnce,
        ];
        let mode_names = ["wrap", "mirror", "clamp", "border", "mirror_once"];
        let mut address = [Address::Wrap; 3];
        if let Some(list) = &raw.address {
            if list.is_empty() || list.len() > 3 {
                return Err(self.bad(format!("{what}.address must list 1 to 3 modes (u, v, w)")));
            }
            for (k, slot) in address.iter_mut().enumerate() {
                let name = &list[k.min(list.len() - 1)];
                *slot = modes[pick(Some(name), "address", &mode_names)?];
            }
        }
        let border = self.floats4(raw.border.as_deref(), &format!("{what}.border"))?;
        let compare = match &raw.compare {
            None => Compare::None,
            Some(name) => {
                let compares = [
                    Compare::Never,
                    Compare::Less,
                    Compare::Equal,
                    Compare::LessEqual,
                    Compare::Greater,
                    Compare::NotEqual,
                    Compare::GreaterEqual,
                    Compare::Always,
                ];
                let names = [
                    "never",
                    "less",
                    "equal",
                    "less_equal",
                    "greater",
                    "not_equal",
                    "greater_equal",
                    "always",
                ];
                compares[pick(Some(name), "compare", &names)?]
            }
        };
        let bump = BumpEnv {
            matrix: self.floats4(raw.bump_matrix.as_deref(), &format!("{what}.bump_matrix"))?,
            lum_scale: raw.bump_lum_scale.map_or(0.0, |n| n.as_f64() as f32),
            lum_offset: raw.bump_lum_offset.map_or(0.0, |n| n.as_f64() as f32),
        };
        Ok(SamplerDesc {
            slot: raw.slot,
            filter,
            mag_filter,
            max_anisotropy,
            lod_bias: float(raw.mip_lod_bias, 0.0),
            min_lod,
            max_lod: float(raw.max_lod, f32::MAX),
            reduction,
            srgb: raw.srgb.unwrap_or(false),
            mip_filter,
            address,
            border,
            compare,
            bump,
        })
    }

    /// A register or semantic (+ index) reference; `reg_ok` says which
    /// register names are allowed.
    pub(crate) fn io_ref(
        &self,
        reg: Option<String>,
        semantic: Option<String>,
        index: Option<u32>,
        what: &str,
        reg_ok: fn(&str) -> bool,
    ) -> Result<IoRef, CaseError> {
        match (reg, semantic) {
            (Some(_), Some(_)) | (None, None) => {
                Err(self.bad(format!("{what} needs reg or semantic (not both)")))
            }
            (Some(_), None) if index.is_some() => {
                Err(self.bad(format!("{what}: index goes with semantic, not reg")))
            }
            (Some(r), None) if !reg_ok(&r) => Err(self.bad(format!("{what}: bad register {r:?}"))),
            (Some(r), None) => Ok(IoRef::Reg(r)),
            (None, Some(name)) => Ok(IoRef::Semantic {
                name,
                index: index.unwrap_or(0),
            }),
        }
    }

    /// A vector of an input, which must not mix floats with small integers.
    fn input_vec(&self, nums: &[Num], what: &str) -> Result<[u32; 4], CaseError> {
        if nums.iter().any(|n| matches!(n, Num::Float(_))) {
            if let Some(Num::Int(i)) = nums
                .iter()
                .find(|n| matches!(n, Num::Int(i) if *i != 0 && i.abs() < 0x10000))
            {
                return Err(self.bad(format!(
                    "{what} mixes floats with the integer {i}, a raw 32-bit word here; write {i}.0"
                )));
            }
        }
        self.vec4(nums, what)
    }

    /// One `[[S.input]]` / `[[draw.input]]`.
    fn input(&self, raw: RawInput, what: &str, per_vertex: bool) -> Result<InputDesc, CaseError> {
        let input = self.io_ref(raw.reg, raw.semantic, raw.index, what, is_input_reg)?;
        let values = match (raw.corners, raw.flat, raw.data) {
            (Some(c), None, None) => {
                let vecs = c
                    .iter()
                    .enumerate()
                    .map(|(k, v)| self.input_vec(v, &format!("{what}.corners[{k}]")))
                    .collect::<Result<Vec<_>, _>>()?;
                InputValues::Corners(
                    <[[u32; 4]; 4]>::try_from(vecs)
                        .map_err(|_| self.bad(format!("{what}.corners must be 4 vec4s")))?,
                )
            }
            (None, Some(f), None) => {
                InputValues::Flat(self.input_vec(&f, &format!("{what}.flat"))?)
            }
            (None, None, Some(d)) if per_vertex => InputValues::PerVertex(
                d.iter()
                    .enumerate()
                    .map(|(k, v)| self.input_vec(v, &format!("{what}.data[{k}]")))
                    .collect::<Result<_, _>>()?,
            ),
            (None, None, Some(_)) => {
                return Err(self.bad(format!("{what}: data is for [vertices] cases")))
            }
            _ => return Err(self.bad(format!("{what} needs exactly one of corners, flat, data"))),
        };
        Ok(InputDesc { input, values })
    }

    /// One `[[uav]]`.
    fn uav(&self, raw: RawUav, k: usize) -> Result<UavDesc, CaseError> {
        let what = format!("[[uav]] #{k}");
        let what = what.as_str();
        let kind = match raw.kind.as_str() {
            "raw" => UavKind::Raw,
            "structured" => UavKind::Structured {
                stride: raw
                    .stride
                    .ok_or_else(|| self.bad(format!("{what}: structured needs a stride")))?,
            },
            "typed" => {
                let format = raw
                    .format
                    .as_deref()
                    .ok_or_else(|| self.bad(format!("{what}: typed needs a format")))?;
                let dimension = match raw.dimension.as_deref() {
                    Some("buffer") => UavDimension::Buffer,
                    Some("texture1d") => UavDimension::Texture1d,
                    Some("texture2d") => UavDimension::Texture2d,
                    Some("texture3d") => UavDimension::Texture3d,
                    Some(other) => {
                        return Err(self.bad(format!("{what}: unknown dimension {other:?}")))
                    }
                    None => return Err(self.bad(format!("{what}: typed needs a dimension"))),
                };
                UavKind::Typed {
                    format: self.writable_format(format, what)?,
                    dimension,
                }
            }
            other => return Err(self.bad(format!("{what}: unknown type {other:?}"))),
        };
        let dim = match kind {
            UavKind::Typed { dimension, .. } => Some(dimension),
            _ => None,
        };
        self.only_if(
            raw.stride.is_some(),
            matches!(kind, UavKind::Structured { .. }),
            "stride",
            what,
        )?;
        self.only_if(raw.format.is_some(), dim.is_some(), "format", what)?;
        self.only_if(raw.dimension.is_some(), dim.is_some(), "dimension", what)?;
        let tall = matches!(dim, Some(UavDimension::Texture2d | UavDimension::Texture3d));
        self.only_if(raw.height.is_some(), tall, "height", what)?;
        self.only_if(
            raw.depth.is_some(),
            dim == Some(UavDimension::Texture3d),
            "depth",
            what,
        )?;
        if [raw.size, raw.height, raw.depth].contains(&Some(0)) {
            return Err(self.bad(format!("{what}: size, height and depth must be at least 1")));
        }
        self.only_if(
            raw.counter.is_some(),
            matches!(kind, UavKind::Structured { .. }),
            "counter",
            what,
        )?;
        if raw.size.is_none() && raw.data.is_empty() {
            return Err(self.bad(format!("{what} needs a size (or data)")));
        }
        let uav = UavDesc {
            slot: raw.slot,
            kind,
            size: raw.size,
            height: raw.height.unwrap_or(1),
            depth: raw.depth.unwrap_or(1),
            data: self.words(&raw.data, &format!("{what}.data"))?,
            fill: self.word(raw.fill, &format!("{what}.fill"))?,
            counter: raw.counter,
        };
        self.fits(uav.data.len(), uav.byte_size(), what)?;
        Ok(uav)
    }

    /// `[draw]`.
    fn draw(&self, raw: RawDraw) -> Result<DrawDesc, CaseError> {
        let targets = raw
            .targets
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let what = format!("draw.targets[{k}]");
                if t.width == 0 || t.height == 0 {
                    return Err(self.bad(format!("{what}: width and height must be at least 1")));
                }
                let samples = match (t.samples, t.sample_count) {
                    (Some(_), Some(_)) => {
                        return Err(self.bad(format!("{what}: samples and sample_count both given")))
                    }
                    (s, c) => s.or(c).unwrap_or(1),
                };
                Ok(TargetDesc {
                    format: self.writable_format(&t.format, &what)?,
                    width: t.width,
                    height: t.height,
                    output: t.output.clone(),
                    samples,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let clear = match &raw.clear {
            Some(c) => self.vec4(c, "draw.clear")?,
            None => [0; 4],
        };
        match (raw.rect, targets.first()) {
            (Some([x0, y0, x1, y1]), _) if x0 >= x1 || y0 >= y1 => {
                return Err(self.bad("draw.rect is empty"));
            }
            (Some([_, _, x1, y1]), Some(t)) if x1 > t.width || y1 > t.height => {
                return Err(self.bad("draw.rect exceeds target 0"));
            }
            (None, None) => return Err(self.bad("a draw without targets needs a rect")),
            _ => {}
        }
        let pixel_center = match raw.pixel_center {
            None => None,
            Some(c) if c == 0.0 || c == 0.5 => Some(c as f32),
            Some(c) => {
                return Err(self.bad(format!("draw.pixel_center must be 0.5 or 0.0, not {c}")))
            }
        };
        let inputs = raw
            .input
            .into_iter()
            .enumerate()
            .map(|(k, s)| self.input(s, &format!("[[draw.input]] #{k}"), false))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(DrawDesc {
            targets,
            clear,
            rect: raw.rect,
            pixel_center,
            inputs,
            sample_mask: raw.sample_mask.unwrap_or(u32::MAX),
        })
    }
}

/// An input register name: `v#` or `t#`.
fn is_input_reg(name: &str) -> bool {
    let digits = name.strip_prefix('v').or_else(|| name.strip_prefix('t'));
    digits.is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}
