//! UAV hidden counters (append and consume) and class instances (SM5 class
//! linkage) bound through `dxjit_bindings`.

mod support;

use dxjit_capi::bindings::{Bindings, ClassInstanceBinding, UavCounterBinding, BINDINGS_V1_SIZE};
use dxjit_capi::compile::dxjit_shader_free;
use dxjit_capi::dispatch::dxjit_dispatch;
use dxjit_capi::shader::Shader;
use dxjit_capi::Status;
use std::mem::size_of;
use std::ptr::null_mut;
use support::{assemble, empty_bindings, raw_uav, with_message};

/// Each of 4 threads takes a counter value with `imm_atomic_alloc` and
/// stores it at word `thread id`.
const APPEND: &str = "cs_5_0
dcl_uav_structured u0, 4
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 4, 1, 1
imm_atomic_alloc r0.x, u0
store_structured u0.x, vThreadID.x, l(0), r0.x
ret
";

/// As [`APPEND`] with `imm_atomic_consume`.
const CONSUME: &str = include_str!("../../tests/asm/consume.asm");

/// fp0[2][1] lists ft0 (fb0: 10 + this.y) and ft1 (fb1: 20 + this.y);
/// thread t calls fp0[t & 1] and stores the result at word t.
const TWO_CLASSES: &str = include_str!("../../tests/asm/two_classes.asm");

fn counter(slot: u32, value: &mut u32) -> UavCounterBinding {
    UavCounterBinding {
        struct_size: size_of::<UavCounterBinding>(),
        slot,
        counter: value,
    }
}

fn instance(slot: u32, table: u32, cb_offset: u32) -> ClassInstanceBinding {
    ClassInstanceBinding {
        struct_size: size_of::<ClassInstanceBinding>(),
        slot,
        table,
        cb: 0,
        cb_offset,
        texture: 0,
        sampler: 0,
    }
}

/// Dispatches one group of `shader` with `bindings`; its status and message.
fn dispatch(shader: *mut Shader, bindings: &Bindings) -> (Status, String) {
    // SAFETY: a live shader; bindings whose pointers reach live memory.
    with_message(|m| unsafe { dxjit_dispatch(shader, bindings, 1, 1, 1, m) })
}

/// Runs `text` over 4 threads with u0 and its counter starting at `start`:
/// the words stored, sorted, and the counter after.
fn run_counter(text: &str, start: u32) -> ([u32; 4], u32) {
    let shader = assemble(text);
    let mut out = [0xdead_beefu32; 4];
    let mut value = start;
    let uav = raw_uav(0, &mut out);
    let c = counter(0, &mut value);
    let b = Bindings {
        uavs: &uav,
        uav_count: 1,
        uav_counters: &c,
        uav_counter_count: 1,
        ..empty_bindings()
    };
    assert_eq!(dispatch(shader, &b), (Status::Ok, String::new()));
    // SAFETY: freed once.
    unsafe { dxjit_shader_free(shader) };
    out.sort_unstable();
    (out, value)
}

#[test]
fn append_takes_values_from_the_callers_counter_and_leaves_it_counted() {
    // Four allocs from 5 return 5, 6, 7, 8 (the value before each add) in
    // some thread order, and leave 5 + 4 = 9.
    assert_eq!(run_counter(APPEND, 5), ([5, 6, 7, 8], 9));
}

#[test]
fn consume_counts_down_through_zero() {
    // Four consumes from 2 return the value after each subtract: 1, 0,
    // then, wrapping below 0, 0xffffffff and 0xfffffffe, which is also
    // where the counter ends (2 - 4 mod 2^32).
    assert_eq!(
        run_counter(CONSUME, 2),
        ([0, 1, 0xffff_fffe, 0xffff_ffff], 0xffff_fffe)
    );
}

#[test]
fn counters_are_checked() {
    let shader = assemble(APPEND);
    let mut out = [0u32; 4];
    let mut value = 0u32;
    let uav = raw_uav(0, &mut out);
    let mut c = counter(0, &mut value);
    c.counter = null_mut();
    let mut b = Bindings {
        uavs: &uav,
        uav_count: 1,
        uav_counters: &c,
        uav_counter_count: 1,
        ..empty_bindings()
    };
    let (status, message) = dispatch(shader, &b);
    assert_eq!(status, Status::NullPointer, "{message}");
    let twice = [counter(1, &mut value), counter(1, &mut value)];
    b.uav_counters = twice.as_ptr();
    b.uav_counter_count = 2;
    let (status, message) = dispatch(shader, &b);
    assert_eq!(status, Status::InvalidArgument);
    assert!(
        message.contains("UAV counter slot 1 is bound twice"),
        "{message}"
    );
    let far = counter(64, &mut value);
    b.uav_counters = &far;
    b.uav_counter_count = 1;
    assert_eq!(dispatch(shader, &b).0, Status::OutOfRange);
    // SAFETY: freed once.
    unsafe { dxjit_shader_free(shader) };
}

#[test]
fn class_instances_pick_each_lanes_class_and_this_data() {
    let shader = assemble(TWO_CLASSES);
    let mut out = [0u32; 4];
    let uav = raw_uav(0, &mut out);
    let classes = [instance(0, 1, 3), instance(1, 0, 5)];
    let b = Bindings {
        uavs: &uav,
        uav_count: 1,
        class_instances: classes.as_ptr(),
        class_instance_count: 2,
        ..empty_bindings()
    };
    assert_eq!(dispatch(shader, &b).0, Status::Ok);
    // SAFETY: freed once.
    unsafe { dxjit_shader_free(shader) };
    // Even threads reach slot 0 (ft1: 20 + 3), odd ones slot 1 (ft0: 10 + 5).
    assert_eq!(out, [23, 15, 23, 15]);
}

#[test]
fn unbound_or_unlisted_interface_slots_refuse_the_call() {
    let shader = assemble(TWO_CLASSES);
    let mut out = [0xffu32; 4];
    let uav = raw_uav(0, &mut out);
    let mut b = Bindings {
        uavs: &uav,
        uav_count: 1,
        ..empty_bindings()
    };
    let (status, message) = dispatch(shader, &b);
    assert_eq!(status, Status::Unlinked);
    assert!(message.contains("interface slot 0 (fp0[0])"), "{message}");
    let one = [instance(0, 1, 0)];
    b.class_instances = one.as_ptr();
    b.class_instance_count = 1;
    let (status, message) = dispatch(shader, &b);
    assert_eq!(status, Status::Unlinked);
    assert!(message.contains("interface slot 1 (fp0[1])"), "{message}");
    let unlisted = [instance(0, 1, 0), instance(1, 7, 0)];
    b.class_instances = unlisted.as_ptr();
    b.class_instance_count = 2;
    let (status, message) = dispatch(shader, &b);
    assert_eq!(status, Status::Unlinked);
    assert!(message.contains("ft7"), "{message}");
    let twice = [instance(1, 1, 0), instance(1, 0, 0)];
    b.class_instances = twice.as_ptr();
    let (status, message) = dispatch(shader, &b);
    assert_eq!(status, Status::InvalidArgument);
    assert!(
        message.contains("interface slot 1 is bound twice"),
        "{message}"
    );
    let far = [instance(253, 0, 0)];
    b.class_instances = far.as_ptr();
    b.class_instance_count = 1;
    assert_eq!(dispatch(shader, &b).0, Status::OutOfRange);
    // SAFETY: freed once.
    unsafe { dxjit_shader_free(shader) };
    // Nothing ran: the UAV keeps its fill.
    assert_eq!(out, [0xff; 4]);
}

#[test]
fn first_version_bindings_still_bind_and_cannot_link_classes() {
    let plain = assemble(support::COMPUTE);
    let mut out = [0u32; 4];
    let uav = raw_uav(0, &mut out);
    let b = Bindings {
        struct_size: BINDINGS_V1_SIZE,
        uavs: &uav,
        uav_count: 1,
        ..empty_bindings()
    };
    assert_eq!(dispatch(plain, &b).0, Status::Ok);
    // Thread t stores t at word t (support::COMPUTE).
    assert_eq!(out, [0, 1, 2, 3]);
    let classes = assemble(TWO_CLASSES);
    assert_eq!(dispatch(classes, &b).0, Status::Unlinked);
    let odd = Bindings {
        struct_size: BINDINGS_V1_SIZE + 8,
        ..b
    };
    assert_eq!(dispatch(plain, &odd).0, Status::StructSize);
    // SAFETY: freed once each.
    unsafe {
        dxjit_shader_free(plain);
        dxjit_shader_free(classes);
    }
}

/// A vertex shader whose one interface slot's class adds `this[0].y` to
/// the input's x.
const VS_CLASS: &str = include_str!("../../tests/asm/vs_class.asm");

#[test]
fn run_pipeline_links_classes_and_refuses_unbound_interfaces() {
    use dxjit_capi::pipeline::{dxjit_run_pipeline, PipelineDesc};
    use dxjit_capi::stream_output::{SoElement, StreamOutputBuffer};
    use dxjit_capi::topology::Topology;
    use std::ptr::null;
    let vs = assemble(VS_CLASS);
    let inputs = [1u32, 0, 0, 0, 2, 0, 0, 0];
    let element = SoElement {
        struct_size: size_of::<SoElement>(),
        semantic: c"TEXCOORD".as_ptr(),
        semantic_index: 0,
        start_component: 0,
        component_count: 1,
    };
    let mut words = [0u32; 2];
    let buffer = StreamOutputBuffer {
        struct_size: size_of::<StreamOutputBuffer>(),
        slot: 0,
        stream: 0,
        stride: 4,
        elements: &element,
        element_count: 1,
        data: words.as_mut_ptr().cast(),
        size: 8,
        offset: 0,
        filled_size: 0,
    };
    let mut b = empty_bindings();
    let mut d = PipelineDesc {
        struct_size: size_of::<PipelineDesc>(),
        vs,
        vs_bindings: &b,
        hs: null(),
        hs_bindings: null(),
        ds: null(),
        ds_bindings: null(),
        gs: null(),
        gs_bindings: null(),
        topology: Topology::PointList as u32,
        vertex_count: 2,
        indices: null(),
        instance_count: 1,
        inputs: inputs.as_ptr(),
        input_words: inputs.len(),
        stream_outputs: &buffer,
        stream_output_count: 1,
    };
    // SAFETY: every pointer in `d` is live for the call; `words` is the
    // buffer's 8 writable bytes.
    let (status, message) = with_message(|m| unsafe { dxjit_run_pipeline(&d, null_mut(), m) });
    assert_eq!(status, Status::Unlinked);
    assert!(message.contains("interface slot 0 (fp0[0])"), "{message}");
    let class = instance(0, 0, 40);
    b.class_instances = &class;
    b.class_instance_count = 1;
    d.vs_bindings = &b;
    // SAFETY: as above.
    let status = unsafe { dxjit_run_pipeline(&d, null_mut(), null_mut()) };
    assert_eq!(status, Status::Ok);
    // SAFETY: freed once.
    unsafe { dxjit_shader_free(vs) };
    // x + this[0].y: 1 + 40, 2 + 40.
    assert_eq!(words, [41, 42]);
}
