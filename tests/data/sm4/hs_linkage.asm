hs_5_0
hs_decls
dcl_input_control_point_count 3
dcl_output_control_point_count 3
dcl_tessellator_domain domain_tri
dcl_tessellator_partitioning partitioning_fractional_odd
dcl_tessellator_output_primitive output_triangle_cw
dcl_hs_max_tessfactor 1115684864
dcl_function_body 0
dcl_function_body 1
dcl_function_table 0, 1, 0
dcl_function_table 1, 1, 1
dcl_interface 0, 2, 65537, 0
hs_fork_phase
dcl_hs_fork_phase_instance_count 3
dcl_temps 1
fcall 0, fp0[0][0]
ret
label l0
mov r0.x, l(1.00000000e+00)
ret
