ps_5_0
dcl_immediateConstantBuffer {
    {0x3f800000, 0x00000000, 0x00000000, 0x00000001},
    {0x40000000, 0x00000001, 0xffffffff, 0x7fc00000},
}
dcl_constantBuffer cb0[4], dynamicIndexed
dcl_sampler s0, mode_default
dcl_sampler s1, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_resource_texture2darray (float,float,float,float) t1
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_input_ps linear v1.xy
dcl_input_ps linear centroid v1.zw
dcl_input_ps constant v2.x
dcl_input_ps_sgv constant v3.x, is_front_face
dcl_output o0.xyzw
dcl_output o1.xy
dcl_output oDepth
dcl_temps 4
dcl_indexableTemp x0[4], 4
mov r0.xy, v0.xyxx
ftou r0.z, v2.x
mov x0[r0.z + 1].xyzw, cb0[r0.z + 0].xyzw
mov r1.xyzw, icb[r0.z + 0].xyzw
sample r2.xyzw, v1.xyxx, t0.xyzw, s0
sample_l_aoffimmi(1,-2,0) r3.xyzw, v1.xyxx, t0.xyzw, s0, l(0.00000000e+00)
sample_c_lz r3.x, v1.xyzx, t1.x, s1, v1.w
resinfo_uint r0.w, l(0), t0.xyzw
ld r3.yzw, l(1, 1, 0, 0), t0.xxyz
deriv_rtx r1.x, v1.x
deriv_rty_fine r1.y, v1.y
if_nz v3.(x)
    mad_sat r2.xyzw, r2.xyzw, l(5.00000000e-01, 5.00000000e-01, 5.00000000e-01, 5.00000000e-01), -|r1.xyzw|
else
    loop
        breakp_z r0.z
        iadd r0.z, r0.z, l(-1)
        continuec_nz r0.w
        discard_nz r0.w
    endloop
endif
switch r0.z
    case l(0)
    mov r2.x, l(1.00000000e+00)
    break
    default
    call l0
    break
endswitch
sincos_precise(xy) r1.x, r1.y, r1.x
dp3 r1.z {min16f}, -r2.xyzx {min16f}, r2.xyzx {nonuniform}
movc r1.w, r1.z, x0[1].x, l(0)
swapc r0.x, r0.y, r1.w, r0.x, r0.y
mov o0.xyzw, r2.xyzw
mov o1.xy, r1.xyxx
mov oDepth, r1.z
retp_nz r0.x
ret
label l0
mov r2.y, l(2.00000000e+00)
ret
