; Each of 4 threads stores what imm_atomic_consume returned at its own element.
cs_5_0
dcl_uav_structured_opc u0, 4
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 4, 1, 1
imm_atomic_consume r0.x, u0
store_structured u0.x, vThreadID.x, l(0), r0.x
ret
