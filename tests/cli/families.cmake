# tests/cli/families.cmake: CLI tests of the readonly and async families: their tables, --explain
# pictures, the configurations a sweep leaves out, and the usage errors of their parameters.

cp_cli_test(readonly_table 0 --golden ${CP_GOLDEN}/cli_readonly.txt
            --stderr "^coalprobe: note: 3 configurations left out: the constant variant's table"
            -- ${CP_BIN} readonly --model --table 4K,64K,1M --index all --size 1M)
cp_cli_test(async_table 0 --golden ${CP_GOLDEN}/cli_async.txt
            --stderr "^coalprobe: note: 2 configurations left out: plain and smem have one stage"
            -- ${CP_BIN} async --model --size 1M --stages 1,2)
cp_cli_test(explain_async_tma 0 --max-width 80 --golden ${CP_GOLDEN}/explain_async_tma.txt
            -- ${CP_BIN} async --model --variant tma-bulk --stages 2 --size 64K --explain)
cp_cli_test(explain_readonly_constant 0 --max-width 80
            --golden ${CP_GOLDEN}/explain_readonly_constant.txt
            -- ${CP_BIN} readonly --model --variant constant --index mod --table 4K --size 64K --explain)
# every rung's schedule fits 80 columns
foreach(variant plain smem cp-async tma-tensor)
  cp_cli_test(explain_async_${variant} 0 --max-width 80 --stdout "^Schedule: block b takes tiles"
              -- ${CP_BIN} async --model --variant ${variant} --stages 1 --size 64K --explain)
endforeach()

# the constant variant over 64 KB does not exist: left out, and said; nothing left is an error
cp_cli_test(readonly_constant_left_out 0
            --stderr "^coalprobe: note: 1 configuration left out: the constant variant's table must fit the 64 KB"
            --stdout "^constant mod +4K +4.00$"
            -- ${CP_BIN} readonly --model --variant constant --table 4K,128K --size 64K)
cp_cli_test(readonly_constant_none 2 --no-stdout
            --stderr "^coalprobe: no configuration of the sweep exists: the constant variant's table"
            -- ${CP_BIN} readonly --model --variant constant --table 1M)
cp_cli_test(async_stages_none 2 --no-stdout
            --stderr "^coalprobe: no configuration of the sweep exists: plain and smem have one stage"
            -- ${CP_BIN} async --model --variant plain --stages 2)

# sizes with suffixes and geometric steps, shown as the input spells them (4K, 64M); their errors
cp_cli_test(readonly_table_sweep 0 --stdout "^plain +mod +256M "
            --stdout "^plain +mod +1K " --stdout "^plain +mod +4K " --stdout "^plain +mod +64M "
            -- ${CP_BIN} readonly --model --variant plain --table 1K..256M:x4 --size 64K)
cp_cli_test(readonly_table_not_entries 2 --no-stdout
            --stderr "^coalprobe: --table: 130 bytes is not a whole number of 4-byte entries"
            -- ${CP_BIN} readonly --table 130)
cp_cli_test(readonly_table_small 2 --no-stdout --stderr "'64' is below the minimum 128"
            -- ${CP_BIN} readonly --table 64)
cp_cli_test(readonly_table_factor 2 --no-stdout --stderr "has a factor below 2"
            -- ${CP_BIN} readonly --table 4K..64K:x1)
cp_cli_test(readonly_index_unknown 2 --no-stdout
            --stderr "--index: unknown value 'stride' \\(expected one of: mod, random, broadcast, all\\)"
            -- ${CP_BIN} readonly --index stride)
cp_cli_test(readonly_index_twice 2 --no-stdout --stderr "--index is given twice"
            --stderr "e.g. --index mod,random" -- ${CP_BIN} readonly --index mod --index random)
cp_cli_test(index_expr_not_readonly 2 --no-stdout
            --stderr "--index belongs to the expr family: write 'coalprobe expr --index EXPR' \\(or 'coalprobe readonly --index mod,random,broadcast'\\)"
            -- ${CP_BIN} gather --index mod)
cp_cli_test(async_stages_max 2 --no-stdout --stderr "--stages: '5' is above the maximum 4"
            -- ${CP_BIN} async --stages 5)
cp_cli_test(async_work_not_stride 2 --no-stdout --stderr "--work does not apply to the stride family"
            --stderr "parameter of 'coalprobe async'" -- ${CP_BIN} --work 4)
cp_cli_test(async_variant_unknown 2 --no-stdout
            --stderr "unknown value 'tma' \\(expected one of: plain, smem, cp-async, tma-bulk, tma-tensor, all\\)"
            -- ${CP_BIN} async --variant tma)
# a GPU below a rung's architecture predicts the row and measures the others: checked on the
# GPU machines by tests/gpu (no GPU here); the model runs everywhere
cp_cli_test(async_model_everywhere 0 --stdout "^tma-tensor +1 +0 +512.00 +1.00$"
            -- ${CP_BIN} async --model --variant tma-tensor --stages 1 --size 64K)
