vs_5_0
dcl_globalFlags refactoringAllowed | enableDoublePrecisionFloatOps
dcl_constantBuffer cb0[2], immediateIndexed
dcl_input v0.xyzw
dcl_input_sgv v1.x, vertex_id
dcl_input_sgv v2.x, instance_id
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_temps 2
ftod r0.xy, cb0[0].x
dadd r0.xy, r0.xyxy, d(1.5, 0.0)
dmul r0.zw, r0.xyxy, r0.xyxy
dtof r1.x, r0.zwzw
iadd r1.y, v1.x, v2.x
bfi r1.z, l(4), l(8), r1.y, l(0)
ubfe r1.w, l(4), l(8), r1.z
firstbit_hi r1.w, r1.w
f32tof16 r1.x, r1.x
f16tof32 r1.x, r1.x
mov o0.xyzw, v0.xyzw
mov o1.xyzw, r1.xyzw
ret
