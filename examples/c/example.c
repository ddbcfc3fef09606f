/* dxjit from C: compile a compute shader, a D3D9 vertex shader and an SM4
 * pixel shader; reflect them; dispatch, run vertices and draw; shade the
 * quads of a tiny rasterizer; draw through a vertex and a geometry shader
 * into stream output; append through a UAV's hidden counter and call a
 * class instance's method; stop an endless loop by timeout and from
 * another thread; check every result against hand-computed values. Prints one line per check, then
 * "N passed, M failed"; exits non-zero on any failure. */

#define _POSIX_C_SOURCE 200809L

#include "dxjit.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int passed, failed;

static void check(int ok, const char *what) {
    printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
    if (ok) passed++; else failed++;
}

/* Checks a call's status; prints and frees its message on failure. Call it
 * after the call has returned, so that `message` holds what the call set. */
static int called(dxjit_status status, char *message, const char *what) {
    if (status != DXJIT_STATUS_OK) {
        printf("FAIL: %s: status %u: %s\n", what, (unsigned)status, message ? message : "");
        failed++;
    }
    dxjit_string_free(message);
    return status == DXJIT_STATUS_OK;
}

static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float value(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

static dxjit_shader *assemble(const char *text, const char *what) {
    dxjit_shader *shader = NULL;
    char *message = NULL;
    dxjit_status status = dxjit_shader_assemble(text, NULL, &shader, &message);
    called(status, message, what);
    return shader;
}

static dxjit_shader_info info_of(const dxjit_shader *shader) {
    dxjit_shader_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    char *message = NULL;
    dxjit_status status = dxjit_shader_get_info(shader, &info, &message);
    called(status, message, "dxjit_shader_get_info");
    return info;
}

/* The register of the input (or output) whose semantic is `name` `index`, or -1. */
static int find_reg(const dxjit_shader *shader, int outputs, const char *name, uint32_t index) {
    dxjit_shader_info info = info_of(shader);
    uint32_t count = outputs ? info.output_count : info.input_count;
    for (uint32_t i = 0; i < count; i++) {
        dxjit_signature_element e;
        memset(&e, 0, sizeof e);
        e.struct_size = sizeof e;
        char *message = NULL;
        dxjit_status s = outputs ? dxjit_shader_get_output(shader, i, &e, &message)
                                 : dxjit_shader_get_input(shader, i, &e, &message);
        if (!called(s, message, "dxjit_shader_get_input/output")) return -1;
        if (strcmp(e.semantic_name, name) == 0 && e.semantic_index == index) return (int)e.reg;
    }
    return -1;
}

/* What the log callback saw: how many warnings, the last level and text. */
struct log_record { int warnings; dxjit_log_level level; char last[256]; };

static void on_log(dxjit_log_level level, const char *message, void *user) {
    struct log_record *r = user;
    if (level == DXJIT_LOG_LEVEL_WARN) r->warnings++;
    r->level = level;
    snprintf(r->last, sizeof r->last, "%s", message);
}

static const char COMPUTE[] =
    "cs_5_0\n"
    "dcl_constantBuffer cb0[1], immediateIndexed\n"
    "dcl_resource_structured t0, 4\n"
    "dcl_uav_raw u0\n"
    "dcl_uav_typed_buffer (uint,uint,uint,uint) u1\n"
    "dcl_input vThreadID.x\n"
    "dcl_temps 2\n"
    "dcl_thread_group 4, 1, 1\n"
    "ld_structured r0.x, vThreadID.x, l(0), t0.xxxx\n"
    "iadd r0.x, r0.x, cb0[0].x\n"
    "ishl r1.x, vThreadID.x, l(2)\n"
    "store_raw u0.x, r1.x, r0.x\n"
    "imul null, r0.y, r0.x, l(2)\n"
    "store_uav_typed u1.xyzw, vThreadID.xxxx, r0.yyyy\n"
    "ret\n";

static void run_compute(void) {
    dxjit_shader *cs = assemble(COMPUTE, "assemble the compute shader");
    if (!cs) return;
    dxjit_shader_info info = info_of(cs);
    check(info.stage == DXJIT_STAGE_COMPUTE && info.family == DXJIT_FAMILY_DXBC,
          "compute: stage compute, family dxbc");
    check(info.model_major == 5 && info.model_minor == 0, "compute: shader model 5.0");
    check(info.thread_group[0] == 4 && info.thread_group[1] == 1 && info.thread_group[2] == 1,
          "compute: thread group 4x1x1");
    check(info.resource_count == 4, "compute: 4 resources (cb0, t0, u0, u1)");
    dxjit_resource_info r;
    memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;
    char *message = NULL;
    dxjit_status status = dxjit_shader_get_resource(cs, 1, &r, &message);
    called(status, message, "dxjit_shader_get_resource");
    check(r.space == DXJIT_RESOURCE_SPACE_SHADER_RESOURCE && r.slot == 0 &&
              r.kind == DXJIT_RESOURCE_KIND_STRUCTURED && r.stride == 4,
          "compute: resource 1 is structured t0, stride 4");

    uint32_t squares[8], constants[4] = {100, 0, 0, 0}, raw[8], typed[8];
    for (uint32_t i = 0; i < 8; i++) { squares[i] = i * i; raw[i] = typed[i] = 0xdeadbeef; }
    dxjit_buffer_binding cb = {.struct_size = sizeof cb, .slot = 0, .kind = DXJIT_BUFFER_KIND_RAW,
                               .data = constants, .size = sizeof constants};
    dxjit_buffer_binding srv = {.struct_size = sizeof srv, .slot = 0, .kind = DXJIT_BUFFER_KIND_STRUCTURED,
                                .data = squares, .size = sizeof squares, .stride = 4};
    dxjit_buffer_binding uavs[2] = {
        {.struct_size = sizeof uavs[0], .slot = 0, .kind = DXJIT_BUFFER_KIND_RAW, .data = raw,
         .size = sizeof raw},
        {.struct_size = sizeof uavs[1], .slot = 1, .kind = DXJIT_BUFFER_KIND_TYPED, .data = typed,
         .size = sizeof typed, .format = DXJIT_FORMAT_R32_UINT, .width = 8, .height = 1, .depth = 1},
    };
    dxjit_bindings b;
    memset(&b, 0, sizeof b);
    b.struct_size = sizeof b;
    b.constant_buffers = &cb;
    b.constant_buffer_count = 1;
    b.buffers = &srv;
    b.buffer_count = 1;
    b.uavs = uavs;
    b.uav_count = 2;
    status = dxjit_dispatch(cs, &b, 2, 1, 1, &message);
    if (called(status, message, "dxjit_dispatch")) {
        int raw_ok = 1, typed_ok = 1;
        for (uint32_t i = 0; i < 8; i++) {
            raw_ok &= raw[i] == i * i + 100;
            typed_ok &= typed[i] == 2 * (i * i + 100);
        }
        check(raw_ok, "dispatch: raw u0[i] = t0[i] + cb0[0].x = i*i + 100");
        check(typed_ok, "dispatch: typed u1[i] = 2 * (i*i + 100)");
    }

    /* The validation layer: u1 left unbound is reported through the log
       callback, and the call still runs (the store to u1 is dropped). */
    struct log_record record = {0, 0, ""};
    check(dxjit_set_log_callback(on_log, DXJIT_LOG_LEVEL_WARN, &record) == DXJIT_STATUS_OK,
          "install a log callback");
    b.uav_count = 1;
    b.validate = 1;
    status = dxjit_dispatch(cs, &b, 2, 1, 1, NULL);
    check(status == DXJIT_STATUS_OK && record.warnings == 1 && record.level == DXJIT_LOG_LEVEL_WARN &&
              strstr(record.last, "UAV 1") != NULL,
          "validate: one warning through the log callback names the unbound UAV 1");
    b.validate = 0;
    dxjit_set_log_callback(NULL, DXJIT_LOG_LEVEL_OFF, NULL);
    status = dxjit_dispatch(cs, &b, 2, 1, 1, NULL);
    check(status == DXJIT_STATUS_OK && record.warnings == 1, "without validate nothing is logged");

    dxjit_draw_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    dxjit_status s = dxjit_draw(cs, NULL, &d, &message);
    check(s == DXJIT_STATUS_WRONG_STAGE && message != NULL, "draw with a compute shader is refused");
    dxjit_string_free(message);
    b.struct_size = 3;
    s = dxjit_dispatch(cs, &b, 1, 1, 1, NULL);
    check(s == DXJIT_STATUS_STRUCT_SIZE, "a wrong struct_size is refused");
    dxjit_shader_free(cs);
}

static const char VERTEX[] =
    "vs_2_0\n"
    "def c2, 0.5, 0.25, 2.0, 1.0\n"
    "dcl_position v0\n"
    "dcl_texcoord0 v1\n"
    "mul r0, v0, c0\n"
    "add oPos, r0, c1\n"
    "mul oT0, v1, c2\n";

static void run_vertex(void) {
    dxjit_shader *vs = assemble(VERTEX, "assemble the D3D9 vertex shader");
    if (!vs) return;
    dxjit_shader_info info = info_of(vs);
    check(info.stage == DXJIT_STAGE_VERTEX && info.family == DXJIT_FAMILY_D3D9 &&
              info.model_major == 2 && info.model_minor == 0,
          "vertex: D3D9 vs_2_0");
    check(info.input_count == 2, "vertex: 2 inputs");
    int pos = find_reg(vs, 0, "POSITION", 0), tex = find_reg(vs, 0, "TEXCOORD", 0);
    int opos = find_reg(vs, 1, "POSITION", 0), otex = find_reg(vs, 1, "TEXCOORD", 0);
    check(pos >= 0 && tex >= 0 && opos >= 0 && otex >= 0,
          "vertex: POSITION and TEXCOORD0 found in inputs and outputs");
    if (pos < 0 || tex < 0 || opos < 0 || otex < 0) { dxjit_shader_free(vs); return; }

    enum { N = 3 };
    uint32_t ni = info.input_registers, no = info.output_registers;
    uint32_t *in = calloc((size_t)N * ni * 4, 4), *out = calloc((size_t)N * no * 4, 4);
    for (uint32_t v = 0; v < N; v++)
        for (uint32_t c = 0; c < 4; c++) {
            in[(v * ni + pos) * 4 + c] = bits((float)(v + c));
            in[(v * ni + tex) * 4 + c] = bits(4.0f * (float)(v + 1));
        }
    float c01[8] = {2, 3, 4, 5, 10, 20, 30, 40}; /* c0 scales, c1 offsets; c2 comes from def */
    dxjit_buffer_binding cb = {.struct_size = sizeof cb, .slot = 0, .kind = DXJIT_BUFFER_KIND_RAW,
                               .data = c01, .size = sizeof c01};
    dxjit_bindings b;
    memset(&b, 0, sizeof b);
    b.struct_size = sizeof b;
    b.constant_buffers = &cb;
    b.constant_buffer_count = 1;
    dxjit_vertex_batch batch = {sizeof batch, N, in, (size_t)N * ni * 4, out, (size_t)N * no * 4};
    char *message = NULL;
    dxjit_status status = dxjit_run_vertices(vs, &b, &batch, &message);
    if (called(status, message, "dxjit_run_vertices")) {
        int pos_ok = 1, tex_ok = 1;
        const float scale[4] = {0.5f, 0.25f, 2.0f, 1.0f};
        for (uint32_t v = 0; v < N; v++)
            for (uint32_t c = 0; c < 4; c++) {
                float want = (float)(v + c) * c01[c] + c01[4 + c];
                pos_ok &= value(out[(v * no + opos) * 4 + c]) == want;
                tex_ok &= value(out[(v * no + otex) * 4 + c]) == 4.0f * (float)(v + 1) * scale[c];
            }
        check(pos_ok, "run_vertices: oPos = v0 * c0 + c1");
        check(tex_ok, "run_vertices: oT0 = v1 * c2 (c2 from def)");
    }
    batch.output_words = 1;
    check(dxjit_run_vertices(vs, &b, &batch, NULL) == DXJIT_STATUS_INVALID_ARGUMENT,
          "run_vertices with too small an output array is refused");
    free(in);
    free(out);
    dxjit_shader_free(vs);
}

static const char PIXEL[] =
    "ps_4_0\n"
    "dcl_sampler s0, mode_default\n"
    "dcl_resource_texture2d (float,float,float,float) t0\n"
    "dcl_input_ps linear v1.xy\n"
    "dcl_output o0.xyzw\n"
    "dcl_output o1.xyzw\n"
    "sample o0.xyzw, v1.xyxx, t0.xyzw, s0\n"
    "mov o1.xy, v1.xyxx\n"
    "mov o1.zw, l(0, 0, 0, 1.0)\n"
    "ret\n";

static void run_pixel(void) {
    dxjit_shader *ps = assemble(PIXEL, "assemble the SM4 pixel shader");
    if (!ps) return;
    dxjit_shader_info info = info_of(ps);
    check(info.stage == DXJIT_STAGE_PIXEL && info.model_major == 4 && info.output_count == 2,
          "pixel: ps_4_0 with 2 outputs");

    /* A 2x2 rgba8 texture: red, green / blue, white. */
    const uint8_t texels[16] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    dxjit_texture_desc td = {sizeof td, DXJIT_TEXTURE_KIND_TEXTURE2D, DXJIT_FORMAT_RGBA8_UNORM, 2, 2, 1, 1};
    dxjit_texture *texture = NULL;
    char *message = NULL;
    dxjit_status status = dxjit_texture_create(&td, texels, sizeof texels, &texture, &message);
    if (!called(status, message,
                "dxjit_texture_create")) {
        dxjit_shader_free(ps);
        return;
    }
    dxjit_texture_binding tb = {sizeof tb, 0, texture};
    dxjit_sampler_binding sb;
    memset(&sb, 0, sizeof sb);
    sb.struct_size = sizeof sb;
    sb.address[0] = sb.address[1] = sb.address[2] = 2; /* clamp */
    sb.max_lod = 3.4e38f;
    dxjit_bindings b;
    memset(&b, 0, sizeof b);
    b.struct_size = sizeof b;
    b.textures = &tb;
    b.texture_count = 1;
    b.samplers = &sb;
    b.sampler_count = 1;

    enum { W = 4, H = 4 };
    uint8_t color[W * H * 4];
    float coords[W * H * 4];
    memset(color, 0, sizeof color);
    memset(coords, 0, sizeof coords);
    dxjit_pixel_input input = {sizeof input, 1,
                               {{bits(0), bits(0), 0, 0}, {bits(1), bits(0), 0, 0},
                                {bits(0), bits(1), 0, 0}, {bits(1), bits(1), 0, 0}}};
    dxjit_render_target targets[2] = {
        {sizeof targets[0], color, sizeof color, W, H, W * 4, DXJIT_FORMAT_RGBA8_UNORM, 0, 1},
        {sizeof targets[1], coords, sizeof coords, W, H, W * 16, DXJIT_FORMAT_RGBA32_FLOAT, 1, 1},
    };
    dxjit_draw_desc d = {sizeof d, {0, 0, W, H}, 0.5f, &input, 1, targets, 2, 0};
    status = dxjit_draw(ps, &b, &d, &message);
    if (called(status, message, "dxjit_draw")) {
        int color_ok = 1, coords_ok = 1;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const uint8_t *want = &texels[((y / 2) * 2 + x / 2) * 4];
                color_ok &= memcmp(&color[(y * W + x) * 4], want, 4) == 0;
                const float *got = &coords[(y * W + x) * 4];
                coords_ok &= got[0] == (x + 0.5f) / W && got[1] == (y + 0.5f) / H &&
                             got[2] == 0.0f && got[3] == 1.0f;
            }
        check(color_ok, "draw: rgba8 target holds the point-sampled texel of each quadrant");
        check(coords_ok, "draw: rgba32 target holds the interpolated texcoords (x+0.5)/4, (y+0.5)/4");
    }
    targets[1].data = color + 4;
    targets[1].format = DXJIT_FORMAT_RGBA8_UNORM;
    targets[1].row_pitch = W * 4;
    targets[1].size = sizeof color - 4;
    check(dxjit_draw(ps, &b, &d, NULL) == DXJIT_STATUS_INVALID_ARGUMENT,
          "draw with overlapping render targets is refused");
    targets[1] = (dxjit_render_target){sizeof targets[1], coords, sizeof coords, W, H, W * 16,
                                       DXJIT_FORMAT_RGBA32_FLOAT, 1, 1};
    tb.slot = 500;
    check(dxjit_draw(ps, &b, &d, NULL) == DXJIT_STATUS_OUT_OF_RANGE,
          "a texture slot out of range is refused");
    dxjit_texture_free(texture);
    dxjit_shader_free(ps);
}

static const char PASS_THROUGH[] =
    "ps_4_0\n"
    "dcl_input_ps linear v0.xy\n"
    "dcl_output o0.xyzw\n"
    "dcl_temps 1\n"
    "deriv_rtx r0.x, v0.x\n"
    "mov o0.xy, v0.xyxx\n"
    "mov o0.zw, r0.xxxx\n"
    "ret\n";

/* Twice the signed area of (a, b, p): positive inside a clockwise triangle. */
static float edge(const float a[2], const float b[2], float px, float py) {
    return (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]);
}

/* A tiny rasterizer: the quads of an 8x8 grid that a triangle touches,
 * with their coverage at pixel centres; shades them with u = x / 8,
 * v = y / 8 as plane equations and checks every covered pixel. */
static void run_quads(void) {
    dxjit_shader *ps = assemble(PASS_THROUGH, "assemble the quad shader");
    if (!ps) return;
    const float tri[3][2] = {{0.0f, 0.0f}, {8.0f, 0.0f}, {0.0f, 8.0f}};
    dxjit_quad quads[16];
    size_t count = 0;
    for (uint32_t qy = 0; qy < 8; qy += 2) {
        for (uint32_t qx = 0; qx < 8; qx += 2) {
            uint32_t coverage = 0;
            for (uint32_t p = 0; p < 4; p++) {
                float px = (float)(qx + (p & 1)) + 0.5f, py = (float)(qy + (p >> 1)) + 0.5f;
                if (edge(tri[0], tri[1], px, py) >= 0 && edge(tri[1], tri[2], px, py) >= 0 &&
                    edge(tri[2], tri[0], px, py) >= 0)
                    coverage |= 1u << p;
            }
            if (coverage) quads[count++] = (dxjit_quad){qx, qy, coverage, 1};
        }
    }
    dxjit_plane_input planes;
    memset(&planes, 0, sizeof planes);
    planes.struct_size = sizeof planes;
    planes.reg = 0;
    planes.planes[0][0] = 1.0f / 8.0f; /* u = x / 8 */
    planes.planes[1][1] = 1.0f / 8.0f; /* v = y / 8 */
    uint32_t outputs[16 * 4 * 4];
    uint8_t alive[16];
    dxjit_quad_batch batch;
    memset(&batch, 0, sizeof batch);
    batch.struct_size = sizeof batch;
    batch.quads = quads;
    batch.quad_count = count;
    batch.pixel_center = 0.5f;
    batch.planes = &planes;
    batch.plane_count = 1;
    batch.outputs = outputs;
    batch.alive = alive;
    char *message = NULL;
    dxjit_status s = dxjit_shade_quads(ps, NULL, &batch, &message);
    if (called(s, message, "dxjit_shade_quads")) {
        int values_ok = 1, alive_ok = 1, covered = 0;
        for (size_t q = 0; q < count; q++) {
            alive_ok &= alive[q] == quads[q].coverage;
            for (uint32_t p = 0; p < 4; p++) {
                const uint32_t *o = &outputs[(4 * q + p) * 4];
                float u = ((float)(quads[q].x + (p & 1)) + 0.5f) / 8.0f;
                float v = ((float)(quads[q].y + (p >> 1)) + 0.5f) / 8.0f;
                values_ok &= value(o[0]) == u && value(o[1]) == v && value(o[2]) == 1.0f / 8.0f;
                covered += (quads[q].coverage >> p) & 1;
            }
        }
        check(count == 10 && covered == 36, "quads: the triangle covers 36 pixels in 10 quads");
        check(alive_ok, "quads: alive = coverage (nothing discards)");
        check(values_ok, "quads: u, v at every pixel centre and ddx(u) = 1/8, helpers included");
    }
    dxjit_shader_free(ps);
}

static const char SAMPLE_INDEX[] =
    "ps_5_0\n"
    "dcl_input_ps_sgv constant v0.x, sampleIndex\n"
    "dcl_output o0.x\n"
    "mov o0.x, v0.x\n"
    "ret\n";

/* A shader that reads SV_SampleIndex runs once per covered sample of a 4x
 * quad: with outputs_per_sample, each pixel has four output sets, set s
 * holding s (D3D11.3, sample-frequency execution). */
static void run_per_sample_quads(void) {
    dxjit_shader *ps = assemble(SAMPLE_INDEX, "assemble the per-sample shader");
    if (!ps) return;
    dxjit_quad quad = {0, 0, 0xf, 1};
    uint32_t outputs[4 * 4 * 4];
    uint8_t alive = 0;
    uint32_t written[4];
    dxjit_quad_batch batch;
    memset(&batch, 0, sizeof batch);
    batch.struct_size = sizeof batch;
    batch.quads = &quad;
    batch.quad_count = 1;
    batch.pixel_center = 0.5f;
    batch.outputs = outputs;
    batch.alive = &alive;
    batch.sample_count = 4;
    batch.written = written;
    batch.outputs_per_sample = 1;
    char *message = NULL;
    dxjit_status s = dxjit_shade_quads(ps, NULL, &batch, &message);
    if (called(s, message, "dxjit_shade_quads per sample")) {
        int ok = alive == 0xf;
        for (uint32_t p = 0; p < 4; p++) {
            ok &= written[p] == 0xf;
            for (uint32_t smp = 0; smp < 4; smp++) ok &= outputs[(4 * p + smp) * 4] == smp;
        }
        check(ok, "quads: a per-sample shader writes sample s's index to its set s");
    }
    dxjit_shader_free(ps);
}

static const char ENDLESS[] =
    "cs_5_0\n"
    "dcl_thread_group 1, 1, 1\n"
    "loop\n"
    "endloop\n"
    "ret\n";

struct interrupter { dxjit_interrupt *flag; };

static void *interrupt_later(void *arg) {
    struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);
    dxjit_interrupt_set(((struct interrupter *)arg)->flag);
    return NULL;
}

static void run_endless(void) {
    dxjit_shader *cs = assemble(ENDLESS, "assemble the endless loop");
    if (!cs) return;
    dxjit_bindings b;
    memset(&b, 0, sizeof b);
    b.struct_size = sizeof b;
    b.timeout_ms = 50;
    char *message = NULL;
    dxjit_status s = dxjit_dispatch(cs, &b, 1, 1, 1, &message);
    check(s == DXJIT_STATUS_DEADLINE_EXCEEDED && message != NULL,
          "an endless loop stops at its 50 ms timeout");
    dxjit_string_free(message);

    struct interrupter i = {dxjit_interrupt_create()};
    b.timeout_ms = 0;
    b.interrupt = i.flag;
    pthread_t thread;
    if (pthread_create(&thread, NULL, interrupt_later, &i) == 0) {
        s = dxjit_dispatch(cs, &b, 1, 1, 1, NULL);
        pthread_join(thread, NULL);
        check(s == DXJIT_STATUS_INTERRUPTED, "an endless loop stops when another thread interrupts it");
    } else {
        check(0, "start the interrupting thread");
    }
    s = dxjit_dispatch(cs, &b, 1, 1, 1, NULL);
    check(s == DXJIT_STATUS_INTERRUPTED, "a call with the flag still set returns at once");
    dxjit_interrupt_clear(i.flag);
    dxjit_interrupt_free(i.flag);
    dxjit_shader_free(cs);
}

/* Append and class linkage: each of 4 threads takes a slot with
 * imm_atomic_alloc from u0's hidden counter and stores there what its
 * class instance's method returns: 100 + this[].y. */
static const char APPEND_CLASS[] =
    "cs_5_0\n"
    "dcl_function_body fb0\n"
    "dcl_function_table ft0 = {fb0}\n"
    "dcl_interface fp0[1][1] = {ft0}\n"
    "dcl_uav_structured u0, 4\n"
    "dcl_temps 2\n"
    "dcl_thread_group 4, 1, 1\n"
    "imm_atomic_alloc r1.x, u0\n"
    "fcall fp0[0][0]\n"
    "store_structured u0.x, r1.x, l(0), r0.x\n"
    "ret\n"
    "label fb0\n"
    "iadd r0.x, this[0].y, l(100)\n"
    "ret\n";

static void run_append_class(void) {
    dxjit_shader *cs = assemble(APPEND_CLASS, "assemble the append and class shader");
    if (!cs) return;
    uint32_t out[8];
    for (int i = 0; i < 8; i++) out[i] = 0xdeadbeef;
    uint32_t counter = 2;
    dxjit_buffer_binding uav = {.struct_size = sizeof uav, .slot = 0, .kind = DXJIT_BUFFER_KIND_STRUCTURED,
                                .data = out, .size = sizeof out, .stride = 4};
    dxjit_uav_counter_binding c = {.struct_size = sizeof c, .slot = 0, .counter = &counter};
    dxjit_class_instance_binding instance = {.struct_size = sizeof instance, .slot = 0, .table = 0,
                                             .cb_offset = 7};
    dxjit_bindings b;
    memset(&b, 0, sizeof b);
    b.struct_size = sizeof b;
    b.uavs = &uav;
    b.uav_count = 1;
    b.uav_counters = &c;
    b.uav_counter_count = 1;
    char *message = NULL;
    dxjit_status s = dxjit_dispatch(cs, &b, 1, 1, 1, &message);
    check(s == DXJIT_STATUS_UNLINKED && message != NULL && strstr(message, "interface slot 0") != NULL,
          "class linkage: a shader with its interface slot unbound is refused");
    dxjit_string_free(message);
    check(counter == 2 && out[0] == 0xdeadbeef, "class linkage: the refused call ran nothing");
    b.class_instances = &instance;
    b.class_instance_count = 1;
    s = dxjit_dispatch(cs, &b, 1, 1, 1, &message);
    if (called(s, message, "dxjit_dispatch with a counter and a class instance")) {
        /* The allocs from 2 return 2, 3, 4, 5 and leave 6; each of those
           words gets 100 + 7; words 0, 1, 6, 7 keep their fill. */
        int ok = counter == 6;
        for (int i = 0; i < 8; i++) ok &= out[i] == (i >= 2 && i < 6 ? 107u : 0xdeadbeefu);
        check(ok, "append: the counter goes 2 -> 6 and words 2..5 hold this[0].y + 100 = 107");
    }
    dxjit_shader_free(cs);
}

/* The pipeline: a vertex shader scales positions by its cb0[0].x; a
 * geometry shader turns each triangle into one point at its centroid
 * moved by its own cb0[0].xy, with SV_PrimitiveID in o1.x. */
static const char PIPE_VS[] =
    "vs_4_0\n"
    "dcl_constantbuffer cb0[1], immediateIndexed\n"
    "dcl_input v0.xyzw\n"
    "dcl_output o0.xyzw\n"
    "mul o0.xyzw, v0.xyzw, cb0[0].xxxx\n"
    "ret\n";

static const char PIPE_GS[] =
    "gs_4_0\n"
    "dcl_constantbuffer cb0[1], immediateIndexed\n"
    "dcl_input v[3][0].xyzw\n"
    "dcl_input vPrim\n"
    "dcl_temps 1\n"
    "dcl_inputprimitive triangle\n"
    "dcl_outputtopology pointlist\n"
    "dcl_output o0.xyzw\n"
    "dcl_output o1.x\n"
    "dcl_maxout 1\n"
    "add r0.xyzw, v[0][0].xyzw, v[1][0].xyzw\n"
    "add r0.xyzw, r0.xyzw, v[2][0].xyzw\n"
    "div r0.xyzw, r0.xyzw, l(3.0, 3.0, 3.0, 3.0)\n"
    "add o0.xyzw, r0.xyzw, cb0[0].xyzw\n"
    "mov o1.x, vPrim\n"
    "emit\n"
    "ret\n";

static void run_pipeline(void) {
    dxjit_shader *vs = assemble(PIPE_VS, "assemble the pipeline's vertex shader");
    dxjit_shader *gs = assemble(PIPE_GS, "assemble the geometry shader");
    if (!vs || !gs) { dxjit_shader_free(vs); dxjit_shader_free(gs); return; }
    dxjit_shader_info info = info_of(gs);
    check(info.stage == DXJIT_STAGE_GEOMETRY, "geometry: stage geometry");

    /* A square of corners (0,0) (3,0) (0,3) (3,3), drawn as a 4-vertex
       triangle strip through indices 0 1 2 3. */
    float inputs[4][4] = {{0, 0, 0, 1}, {3, 0, 0, 1}, {0, 3, 0, 1}, {3, 3, 0, 1}};
    uint32_t words[16], indices[4] = {0, 1, 2, 3};
    memcpy(words, inputs, sizeof words);
    float vs_constants[4] = {2, 0, 0, 0}, gs_constants[4] = {100, 200, 0, 0};
    dxjit_buffer_binding vs_cb = {.struct_size = sizeof vs_cb, .slot = 0, .kind = DXJIT_BUFFER_KIND_RAW,
                                  .data = vs_constants, .size = sizeof vs_constants};
    dxjit_buffer_binding gs_cb = vs_cb;
    gs_cb.data = gs_constants;
    dxjit_bindings vb, gb;
    memset(&vb, 0, sizeof vb);
    vb.struct_size = sizeof vb;
    gb = vb;
    vb.constant_buffers = &vs_cb;
    vb.constant_buffer_count = 1;
    gb.constant_buffers = &gs_cb;
    gb.constant_buffer_count = 1;

    /* Each vertex: the centroid's x, y and the primitive ID, 12 bytes;
       room for three, so the third keeps its fill. */
    dxjit_so_element elements[2] = {
        {.struct_size = sizeof elements[0], .semantic = "TEXCOORD", .semantic_index = 0,
         .start_component = 0, .component_count = 2},
        {.struct_size = sizeof elements[1], .semantic = "texcoord", .semantic_index = 1,
         .start_component = 0, .component_count = 1},
    };
    uint32_t so[9];
    for (int i = 0; i < 9; i++) so[i] = 0xdeadbeef;
    dxjit_stream_output_buffer buffer = {.struct_size = sizeof buffer, .slot = 0, .stream = 0,
                                         .stride = 12, .elements = elements, .element_count = 2,
                                         .data = so, .size = sizeof so};
    dxjit_pipeline_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.vs = vs;
    d.vs_bindings = &vb;
    d.gs = gs;
    d.gs_bindings = &gb;
    d.topology = DXJIT_TOPOLOGY_TRIANGLE_STRIP;
    d.vertex_count = 4;
    d.indices = indices;
    d.instance_count = 1;
    d.inputs = words;
    d.input_words = 16;
    d.stream_outputs = &buffer;
    d.stream_output_count = 1;
    dxjit_pipeline_result result;
    memset(&result, 0, sizeof result);
    result.struct_size = sizeof result;
    char *message = NULL;
    dxjit_status status = dxjit_run_pipeline(&d, &result, &message);
    if (called(status, message, "dxjit_run_pipeline")) {
        /* The vertex shader doubles the corners to (0,0) (6,0) (0,6) (6,6).
           The strip's triangles are (0,1,2) and (1,3,2): centroids (2,2)
           and (4,4), plus the geometry shader's (100,200): (102,202) and
           (104,204), with primitive IDs 0 and 1. */
        check(value(so[0]) == 102 && value(so[1]) == 202 && so[2] == 0 && value(so[3]) == 104 &&
                  value(so[4]) == 204 && so[5] == 1,
              "pipeline: vs x2, gs centroid + cb0, SV_PrimitiveID reach stream output");
        check(so[6] == 0xdeadbeef && so[7] == 0xdeadbeef && so[8] == 0xdeadbeef,
              "pipeline: bytes past the two written vertices keep their fill");
        check(result.primitives_written[0] == 2 && result.primitives_needed[0] == 2 &&
                  result.primitives_needed[1] == 0,
              "pipeline: stream 0 wrote and needed 2 points");
        check(result.filled_sizes[0] == 24, "pipeline: slot 0 is filled to byte 24 (two 12-byte vertices)");
    }

    /* The same draw again, appending (SOSetTargets' offset -1) after the
       24 bytes written: room for one more 12-byte vertex, so the first
       point (102, 202, 0) lands at bytes 24..36 and the second is only
       counted. */
    buffer.offset = DXJIT_SO_APPEND;
    buffer.filled_size = result.filled_sizes[0];
    status = dxjit_run_pipeline(&d, &result, &message);
    if (called(status, message, "dxjit_run_pipeline, appending")) {
        check(value(so[3]) == 104 && value(so[6]) == 102 && value(so[7]) == 202 && so[8] == 0 &&
                  result.primitives_written[0] == 1 && result.primitives_needed[0] == 2 &&
                  result.filled_sizes[0] == 36,
              "pipeline: an appending draw continues at the filled size until the buffer is full");
    }
    buffer.offset = 0;

    /* Room for one vertex only: the first point is written, the second
       is counted as needed but not written (D3D11's overflow rule). */
    for (int i = 0; i < 9; i++) so[i] = 0xdeadbeef;
    buffer.size = 20;
    status = dxjit_run_pipeline(&d, &result, &message);
    if (called(status, message, "dxjit_run_pipeline into a small buffer")) {
        check(value(so[0]) == 102 && so[3] == 0xdeadbeef && result.primitives_written[0] == 1 &&
                  result.primitives_needed[0] == 2,
              "pipeline: an overflowing buffer stops after the first point, which still counts");
    }

    /* A point list cannot feed a triangle-input geometry shader. */
    d.topology = DXJIT_TOPOLOGY_POINT_LIST;
    status = dxjit_run_pipeline(&d, &result, &message);
    check(status == DXJIT_STATUS_INVALID_ARGUMENT && message != NULL,
          "pipeline: a topology that is not the geometry shader's input is refused");
    dxjit_string_free(message);
    dxjit_shader_free(vs);
    dxjit_shader_free(gs);
}

int main(void) {
    run_compute();
    run_endless();
    run_quads();
    run_per_sample_quads();
    run_vertex();
    run_pixel();
    run_pipeline();
    run_append_class();
    check(dxjit_shader_compile(NULL, 4, NULL, NULL, NULL) == DXJIT_STATUS_NULL_POINTER,
          "compile from a null pointer is refused");
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
