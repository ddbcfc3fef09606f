; fp0[2][1] lists ft0 (fb0: 10 + this.y) and ft1 (fb1: 20 + this.y);
; thread t calls fp0[t & 1] and stores the result at word t.
cs_5_0
dcl_function_body fb0
dcl_function_body fb1
dcl_function_table ft0 = {fb0}
dcl_function_table ft1 = {fb1}
dcl_interface_dynamicindexed fp0[2][1] = {ft0, ft1}
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 2
dcl_thread_group 4, 1, 1
ishl r1.x, vThreadID.x, l(2)
and r1.y, vThreadID.x, l(1)
fcall fp0[r1.y + 0][0]
store_raw u0.x, r1.x, r0.x
ret
label fb0
iadd r0.x, this[r1.y + 0].y, l(10)
ret
label fb1
iadd r0.x, this[r1.y + 0].y, l(20)
ret
