cs_5_0
dcl_globalFlags refactoringAllowed
dcl_constantBuffer cb0[2], immediateIndexed
dcl_uav_raw u0
dcl_uav_structured u1, 16
dcl_uav_typed_buffer (uint,uint,uint,uint) u2
dcl_resource_raw t0
dcl_resource_structured t1, 8
dcl_resource_buffer (float,float,float,float) t2
dcl_tgsm_raw g0, 64
dcl_tgsm_structured g1, 8, 4
dcl_input vThreadID.xyz
dcl_input vThreadGroupID.x
dcl_input vThreadIDInGroup.x
dcl_input vThreadIDInGroupFlattened
dcl_temps 3
dcl_thread_group 4, 2, 1
ishl r0.x, vThreadIDInGroupFlattened.(x), l(2)
store_raw g0.x, r0.x, vThreadID.x
sync_g_t
ld_raw r1.xy, r0.x, g0.xyxx
ld_raw r2.xyzw, l(0), t0.xyzw
ld_structured r1.z, vThreadIDInGroup.x, l(4), t1.x
store_structured g1.xy, l(1), l(0), r1.xyxx
ld_structured r1.w, l(1), l(4), g1.x
bufinfo_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r2.x, u0.xyzw
ld_indexable(buffer) r2.y, vThreadGroupID.x, t2.yxzw
ld_uav_typed_indexable(buffer)(uint,uint,uint,uint) r2.z, l(0, 0, 0, 0), u2.yzxw
store_uav_typed u2.xyzw, vThreadID.x, r2.xyzw
atomic_iadd u0, l(0), cb0[0].x
atomic_cmp_store u0, l(4), cb0[0].x, cb0[0].y
imm_atomic_umax r0.y, u0, l(8), cb0[1].w
imm_atomic_cmp_exch r0.z, u1, l(1, 4, 0, 0), cb0[0].x, r0.x
imm_atomic_exch r0.w, g0, l(12), -r0.y
imul null, r0.x, r0.x, r0.y
udiv r0.x, r0.y, r0.x, r0.z
uaddc r1.x, r1.y, r0.x, r1.x
usubb r1.z, r1.w, r0.x, r1.z
umul r2.x, r2.y, r2.x, r2.y
store_raw u0.xyzw, l(16), r0.xyzw
store_structured u1.xy, vThreadID.x, l(8), r1.xyxx
store_raw u0.xyzw, l(32), r2.xyzw
sync_uglobal_t
ret
