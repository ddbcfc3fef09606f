hs_5_0
hs_decls
dcl_input_control_point_count 3
dcl_output_control_point_count 3
dcl_tessellator_domain domain_tri
dcl_tessellator_partitioning partitioning_fractional_odd
dcl_tessellator_output_primitive output_triangle_cw
dcl_hs_max_tessfactor 1115684864
dcl_function_body fb0
dcl_function_body fb1
dcl_function_table ft0 = {fb0}
dcl_function_table ft1 = {fb1}
dcl_interface fp0[1][2] = {ft0}
hs_fork_phase
dcl_hs_fork_phase_instance_count 3
dcl_temps 1
fcall fp0[0][0][0]
ret
label l0
mov r0.x, l(1.00000000e+00)
ret
