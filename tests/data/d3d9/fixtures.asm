vs_1_1
dcl_position v0
dcl_normal v1
def c10, 1, 0.5, -2, 0
mov a0.x, c4.x
mov r0, c[a0.x + 5]
m4x4 oPos, v0, c0
dp3 r1.x, v1, c4
rcp r1.y, r1.x
rsq r1.z, -r1.x
expp r2, r1.x
logp r2.y, r1.z
lit oD0, r1
sge r3, r1, c10
slt r3.yz, r1.x, -c10
mad oT0.xy, v0, c10, r0
dst r4, r1, r2
frc r4.xy, r4
mov oFog, r4.x
mov oPts, r4.y
===
ps_1_3
def c0, 1, 0, 0, 1
tex t0
texm3x3pad t1, t0_bx2
texm3x3pad t2, t0_bx2
texm3x3spec t3, t0_bx2, c0
texcoord t1
mul_x2 r0.rgb, t3, 1-v0
+mad_sat r0.a, t1.a, v1_bias, -c0.a
cnd r1, r0.a, t0, t3
lrp_d2 r0, c0, r1, r0
===
ps_1_4
texld r0, t0_dz
texcrd r1.xyz, t1
bem r2.xy, r0, r1
phase
texld r3, r2
cmp r0, r3, r0, -r1_x2
texdepth r5
===
ps_2_x
dcl t0
dcl_2d s0
dcl_cube s1
def c0, 0.5, 0, 0, 1
texldp r0, t0, s0
texldb r1, t0, s1
dp2add r2.x, r0, c0, c0.w
dsx r3, r0
dsy r4, r0
texkill r3
mov_sat oC0, r2.x
mov oDepth, r0.z
===
vs_3_0
dcl_position v0
dcl_texcoord3 v1
dcl_position o0
dcl_texcoord o1.xy
dcl_color1 o1.zw
defi i0, 4, 2, 1, 0
defb b0, true
mova a0.x, v1.x
loop aL, i0
add r0, r0, c0[aL]
break_ge r0.x, c1.x
breakp p0.y
endloop
rep i0
if b0
sincos r1.xy, r0.x
else
sgn r1, r0, r2, r3
endif
endrep
setp_lt p0, r0, r1
(p0.x) mov r2, r1
(!p0) add o1, r0, c2[a0.x]
callnz l1, !b0
call l1
mov o0, v0
pow r3, r0.x, r1.y
crs r4.xyz, r0, r1
nrm r5, r4
abs r6, -r5_abs
ret
label l1
m3x3 r7.xyz, r0, c4
if_ne r0.x, r1.y
texldl r8, r0, s0
endif
ret
===
ps_3_0
dcl_texcoord0_centroid v0.xy
dcl vFace
dcl vPos.xy
dcl_volume s2
add r0, v0, vPos.xyxy
cmp r0, vFace, r0, -r0
texldd r1, r0, s2, r0.x, r0.y
mov oC1, r1
