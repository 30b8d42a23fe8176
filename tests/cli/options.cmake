# tests/cli/options.cmake: CLI tests of the command line: one rule for leading zeros, repeated
# options, every check before the first byte of output.

# --explain checks every configuration before the first picture: a later configuration's grid
# too small for --warp (width 32 has a quarter of width 4's warps), or a later parameter value
# that divides by zero, fails with nothing on standard output
cp_cli_test(options_explain_late_warp 2 --no-stdout
            --stderr "^coalprobe: warp 1500000 does not exist \\(the grid has 262144 warps\\)$"
            --stderr "^hint: --warp takes 0 to 262143 for stride .*width=32"
            -- ${CP_BIN} --width 4,32 --explain --warp 1500000 --model)
cp_cli_test(options_explain_late_warp_gemm 2 --no-stdout --stderr "^coalprobe: warp 1500 does not exist"
            -- ${CP_BIN} gemm --m 4096,64 --n 64 --k 8 --variant naive --explain --warp 1500 --model)
cp_cli_test(options_explain_late_expr 2 --no-stdout --stderr "^coalprobe: --index: division by zero"
            -- ${CP_BIN} expr --index "i / s" --param s=1,0 --size 4K --explain --model)
# the warps of every configuration still draw
cp_cli_test(options_explain_every_warp 0 --stdout "width=32 op=load: warp 262143 of 262144"
            -- ${CP_BIN} --width 4,32 --explain --warp 262143 --model)

# numbers: decimal, no leading zero anywhere ("0" and "0..3" are numbers)
set(CP_OPT_ZERO "has a leading zero \\(write")
cp_cli_test(options_zero_stride 2 --no-stdout
            --stderr "^coalprobe: --stride: '010' has a leading zero \\(write 10. octal is not read\\)$"
            --stderr "^hint: numbers are decimal" -- ${CP_BIN} --stride 010 --model)
cp_cli_test(options_zero_range 2 --no-stdout
            --stderr "^coalprobe: --stride: '010' ${CP_OPT_ZERO} 10. octal is not read\\), in '1\\.\\.010'$"
            -- ${CP_BIN} --stride 1..010 --model)
cp_cli_test(options_zero_step 2 --no-stdout --stderr "--offset: '02' ${CP_OPT_ZERO} 2."
            -- ${CP_BIN} --offset 0..8:02 --model)
cp_cli_test(options_zero_size 2 --no-stdout
            --stderr "^coalprobe: --size: '010K' ${CP_OPT_ZERO} 10K. octal is not read\\)$"
            -- ${CP_BIN} --size 010K --model)
cp_cli_test(options_zero_warp 2 --no-stdout --stderr "^coalprobe: --warp: '07' ${CP_OPT_ZERO} 7."
            -- ${CP_BIN} --warp 07 --explain --model)
cp_cli_test(options_zero_device 2 --no-stdout --stderr "^coalprobe: --device: '01' ${CP_OPT_ZERO} 1."
            -- ${CP_BIN} --device 01 --model)
cp_cli_test(options_zero_reps 2 --no-stdout --stderr "^coalprobe: --reps: '020' ${CP_OPT_ZERO} 20."
            -- ${CP_BIN} --reps 020 --model)
cp_cli_test(options_zero_param 2 --no-stdout --stderr "^coalprobe: --param s: '010' ${CP_OPT_ZERO} 10."
            -- ${CP_BIN} expr --index "i * s % n" --param s=1,010 --model)
cp_cli_test(options_zero_tolerance 2 --no-stdout
            --stderr "^coalprobe: --tolerance: '05%' ${CP_OPT_ZERO} 5%."
            -- ${CP_BIN} compare base.json new.json --tolerance 05%)
cp_cli_test(options_zero_trace_top 2 --no-stdout --stderr "^coalprobe: --top: '05' ${CP_OPT_ZERO} 5."
            -- ${CP_BIN} trace --top 05 -- true)
cp_cli_test(options_zero_trace_pct 2 --no-stdout
            --stderr "^coalprobe: --max-excess-pct: '05' ${CP_OPT_ZERO} 5."
            -- ${CP_BIN} trace --max-excess-pct 05 -- true)
cp_cli_test(options_zero_itself 0 --stdout "^ +1 +4 +4 " --stdout "^ +1 +0 +4 " --no-stderr
            -- ${CP_BIN} --stride 1 --offset 0..3,4 --model)

# an option with a value is given once; --param once per name, flags may repeat
cp_cli_test(options_twice_size 2 --no-stdout
            --stderr "^coalprobe: --size is given twice \\(give it once\\)$" --stderr "^hint: "
            -- ${CP_BIN} --size 1M --size 2M --model)
cp_cli_test(options_twice_format 2 --no-stdout --stderr "^coalprobe: --format is given twice"
            -- ${CP_BIN} --format csv --format table --model)
cp_cli_test(options_twice_format_json 2 --json --stderr "^coalprobe: --format is given twice"
            -- ${CP_BIN} --format json --format csv --model)
cp_cli_test(options_twice_output 2 --no-stdout --stderr "^coalprobe: --output is given twice"
            --no-file ${CMAKE_CURRENT_BINARY_DIR}/options_twice
            -- ${CP_BIN} --model -o ${CMAKE_CURRENT_BINARY_DIR}/options_twice_a.txt
               --output=${CMAKE_CURRENT_BINARY_DIR}/options_twice_b.txt)
cp_cli_test(options_twice_device 2 --no-stdout --stderr "^coalprobe: --device is given twice"
            -- ${CP_BIN} --device 0 --device 1 --model)
cp_cli_test(options_twice_stride 2 --no-stdout --stderr "^coalprobe: --stride is given twice"
            --stderr "^hint: a sweep takes all its values in one option, e.g. --stride 1,2,4"
            -- ${CP_BIN} --stride 1 --stride 2 --model)
cp_cli_test(options_twice_op 2 --no-stdout --stderr "^hint: .*e\\.g\\. --op load,store$"
            -- ${CP_BIN} --op load --op store --model)
cp_cli_test(options_twice_index 2 --no-stdout --stderr "^coalprobe: --index is given twice"
            -- ${CP_BIN} expr --index i --index "i * 2 % n" --model)
cp_cli_test(options_twice_warp 2 --no-stdout --stderr "^coalprobe: --warp is given twice"
            -- ${CP_BIN} --warp 1 --warp 2 --explain --model)
cp_cli_test(options_twice_tolerance 2 --no-stdout --stderr "^coalprobe: --tolerance is given twice"
            -- ${CP_BIN} compare base.json new.json --tolerance 5% --tolerance 1%)
cp_cli_test(options_twice_compare_output 2 --no-stdout --stderr "^coalprobe: --output is given twice"
            -- ${CP_BIN} compare base.json new.json -o a.txt -o b.txt)
cp_cli_test(options_twice_trace_top 2 --no-stdout --stderr "^coalprobe: --top is given twice"
            -- ${CP_BIN} trace --top 3 --top 4 -- true)
cp_cli_test(options_twice_trace_format 2 --no-stdout --stderr "^coalprobe: --format is given twice"
            -- ${CP_BIN} trace --format csv --format=json -- true)
cp_cli_test(options_twice_doctor 2 --no-stdout --stderr "^coalprobe: --format is given twice"
            -- ${CP_BIN} doctor --format text --format json)
cp_cli_test(options_repeat_flags_params 0 --stdout "^expr " --stderr "s in all \\(--verbose\\)"
            -- ${CP_BIN} expr --index "(i * s + t) % n" --param s=1,2 --param t=0 --size 4K
               --model --model -v -v --explain)

# the stopping rule of the timed launches: its values, its leading zeros, --reps against it, and
# --min-time against --max-time, all refused before any output; a run model-only takes them
cp_cli_test(options_zero_noise 2 --no-stdout --stderr "^coalprobe: --max-noise: '05' ${CP_OPT_ZERO} 5."
            -- ${CP_BIN} --max-noise 05 --model)
cp_cli_test(options_zero_max_time 2 --no-stdout --stderr "^coalprobe: --max-time: '01' ${CP_OPT_ZERO} 1."
            -- ${CP_BIN} --max-time 01 --model)
cp_cli_test(options_rule_noise 2 --no-stdout --stderr "^coalprobe: --max-noise: '1e-3' is not a percentage$"
            --stderr "^hint: e.g. --max-noise 0.5" -- ${CP_BIN} --max-noise 1e-3 --model)
cp_cli_test(options_rule_time 2 --no-stdout --stderr "^coalprobe: --min-time: '1h' is not a time$"
            --stderr "^hint: seconds, e.g. 0.5, 0.5s or 500ms" -- ${CP_BIN} --min-time 1h --model)
cp_cli_test(options_rule_samples 2 --no-stdout --stderr "^coalprobe: --min-samples: '0' is below the minimum 1"
            -- ${CP_BIN} --min-samples 0 --model)
cp_cli_test(options_rule_reps 2 --no-stdout
            --stderr "^coalprobe: --reps fixes the count of timed launches: --min-samples belongs to the stopping rule$"
            --stderr "^hint: drop --reps to let the rule decide, or drop --min-samples"
            -- ${CP_BIN} --min-samples 8 --max-noise 1 --reps 3 --model)
cp_cli_test(options_rule_times 2 --no-stdout
            --stderr "^coalprobe: --min-time 2 s is longer than --max-time 0.25 s$"
            -- ${CP_BIN} --min-time 2 --max-time 250ms --model)
cp_cli_test(options_rule_twice 2 --no-stdout --stderr "^coalprobe: --max-noise is given twice"
            -- ${CP_BIN} --max-noise 1 --max-noise 2 --model)
cp_cli_test(options_rule_model 0 --no-stderr --golden ${CP_GOLDEN}/cli_stride_1_32.txt
            -- ${CP_BIN} --stride 1..32 --model --min-samples 10 --max-noise 0.1% --min-time 1s --max-time 2)
