//! SM5 class linkage through the safe API: `Bindings::class_instance`
//! selects the class an `fcall` runs and the data `this[]` reads, and a
//! call with an interface slot left unbound is refused, as D3D11 disables
//! such a shader: by `dispatch` and by `run_pipeline`.

use dxjit::api::{
    run_pipeline, DrawInput, PipelineStages, SoDeclEntry, StageBinding, StreamOutput,
};
use dxjit::{BindError, Bindings, BufferLayout, ClassInstance, Engine, EngineConfig, RunError};
use dxjit_runtime::pipeline::Topology;

/// fp0[2][1] lists ft0 (fb0: 10 + this.y) and ft1 (fb1: 20 + this.y);
/// thread t calls fp0[t & 1] and stores the result at word t.
const TWO_CLASSES: &str = include_str!("asm/two_classes.asm");

fn run(bind: impl FnOnce(&mut Bindings<'_>)) -> Result<Vec<u32>, RunError> {
    let engine = Engine::new(EngineConfig::default()).expect("engine");
    let shader = engine
        .compile(&dxjit::text::assemble(TWO_CLASSES).expect("assembles"))
        .expect("compiles");
    let mut out = vec![0u8; 16];
    {
        let mut b = Bindings::new();
        b.rw_buffer(0, &mut out, BufferLayout::Raw).unwrap();
        bind(&mut b);
        shader.dispatch(&b, [1, 1, 1])?;
    }
    Ok(out
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect())
}

#[test]
fn bound_tables_and_this_data_pick_each_lanes_class() {
    let got = run(|b| {
        b.class_instance(
            0,
            ClassInstance {
                table: 1,
                cb_offset: 3,
                ..Default::default()
            },
        )
        .unwrap()
        .class_instance(
            1,
            ClassInstance {
                table: 0,
                cb_offset: 5,
                ..Default::default()
            },
        )
        .unwrap();
    });
    // Even threads reach slot 0 (ft1: 20 + 3), odd ones slot 1 (ft0: 10 + 5).
    assert_eq!(got.unwrap(), [23, 15, 23, 15]);
}

#[test]
fn an_unbound_slot_refuses_the_call_and_slots_past_253_do_not_bind() {
    let err = run(|b| {
        b.class_instance(0, ClassInstance::default()).unwrap();
    })
    .unwrap_err();
    assert!(
        matches!(&err, RunError::Unlinked(m) if m.contains("interface slot 1 (fp0[1])")),
        "{err}"
    );
    let mut b = Bindings::new();
    assert!(matches!(
        b.class_instance(253, ClassInstance::default()),
        Err(BindError::SlotOutOfRange { slot: 253, .. })
    ));
}

/// A vertex shader whose one interface slot's class adds `this[0].y` to
/// the input's x.
const VS_CLASS: &str = include_str!("asm/vs_class.asm");

/// Runs two points (x = 1, 2) through `VS_CLASS` with `b` into a buffer of
/// their x words.
fn pipeline(b: &Bindings<'_>) -> Result<Vec<u32>, RunError> {
    let engine = Engine::new(EngineConfig::default()).expect("engine");
    let vs = engine
        .compile(&dxjit::text::assemble(VS_CLASS).expect("assembles"))
        .expect("compiles");
    let stages = PipelineStages {
        vs: StageBinding {
            shader: &vs,
            bindings: b,
        },
        hs: None,
        ds: None,
        gs: None,
    };
    let draw = DrawInput {
        topology: Topology::PointList,
        vertex_count: 2,
        indices: None,
        instance_count: 1,
        inputs: vec![[1, 0, 0, 0], [2, 0, 0, 0]],
    };
    let so = StreamOutput::new(
        0,
        0,
        4,
        vec![SoDeclEntry::parse("TEXCOORD0.x").unwrap()],
        vec![0; 8],
    );
    let out = run_pipeline(&stages, &draw, vec![so])?;
    Ok(out.buffers[0]
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect())
}

#[test]
fn run_pipeline_links_classes_and_refuses_unbound_interfaces() {
    let mut b = Bindings::new();
    let err = pipeline(&b).unwrap_err();
    assert!(
        matches!(&err, RunError::Unlinked(m) if m.contains("interface slot 0 (fp0[0])")),
        "{err}"
    );
    b.class_instance(
        0,
        ClassInstance {
            table: 0,
            cb_offset: 40,
            ..Default::default()
        },
    )
    .unwrap();
    // x + this[0].y: 1 + 40, 2 + 40.
    assert_eq!(pipeline(&b).unwrap(), [41, 42]);
}
