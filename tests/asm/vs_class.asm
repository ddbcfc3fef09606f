; A vertex shader whose one interface slot's class adds this[0].y to
; the input's x.
vs_5_0
dcl_function_body fb0
dcl_function_table ft0 = {fb0}
dcl_interface fp0[1][1] = {ft0}
dcl_input v0.xyzw
dcl_output o0.xyzw
dcl_temps 1
fcall fp0[0][0]
mov o0.xyzw, r0.xyzw
ret
label fb0
iadd r0.xyzw, v0.xyzw, this[0].yyyy
ret
