# Sourced by tests/scripts/mlperf_import_*.sh: a synthetic MLPerf Training
# submission (no ../shared).
#   mlperf_submission DIR MS   writes DIR (a SUBMITTER folder, its licence in
#   DIR/..): two systems (cpu2, cpu4: 2 and 4 CPU nodes), each with five
#   resnet runs of about MS ms (the last aborted), a scaling.json and the
#   implementation's README, Dockerfile and config.
MLPERF_COMMIT=0123456789abcdef0123456789abcdef01234567
mlperf_submission() {
    _sub=$1 _ms=$2
    mkdir -p "$_sub/systems"
    echo "Apache License 2.0" >"$_sub/../LICENSE.md"
    for _n in 2 4; do
        _sys=cpu$_n
        cat >"$_sub/systems/$_sys.json" <<J
{"submitter": "Acme", "system_name": "Acme CPU cluster $_n", "number_of_nodes": "$_n",
 "host_processors_per_node": "1", "host_processor_model_name": "AMD EPYC 7302",
 "host_processor_core_count": "8", "host_processor_vcpu_count": "16",
 "host_memory_capacity": "256 GB", "accelerators_per_node": "0",
 "accelerator_model_name": "", "accelerator_memory_capacity": "",
 "accelerator_interconnect": "", "framework": "PyTorch 2.3",
 "other_software_stack": {"python": "3.11"}}
J
        _dir="$_sub/results/$_sys/resnet"
        mkdir -p "$_dir"
        for _i in 0 1 2 3 4; do
            _status=success
            [ "$_i" = 4 ] && _status=aborted
            {
                echo ':::MLLOG {"key": "submission_benchmark", "value": "resnet", "time_ms": 1}'
                echo ':::MLLOG {"key": "global_batch_size", "value": 640, "time_ms": 1}'
                echo ':::MLLOG {"key": "run_start", "value": null, "time_ms": 1000, "metadata": {}}'
                echo ":::MLLOG {\"key\": \"run_stop\", \"value\": null, \"time_ms\": $((1000 + _ms + _i * 1000 * _n)), \"metadata\": {\"status\": \"$_status\"}}"
            } >"$_dir/result_$_i.txt"
        done
        echo '{"scaling_factor": 1.5}' >"$_dir/scaling.json"
        _impl="$_sub/benchmarks/resnet/implementations/$_sys"
        mkdir -p "$_impl"
        printf 'ARG FROM_IMAGE_NAME=nvcr.io/nvidia/mxnet:24.04-py3\nFROM ${FROM_IMAGE_NAME}\n' >"$_impl/Dockerfile"
        printf 'export DGXNNODES=%s\nexport WALLTIME=30\n' "$_n" >"$_impl/config_CPU$_n.sh"
        printf '# Steps\n\n```\nsource config_CPU%s.sh\nCONT=x sbatch -N ${DGXNNODES} run.sub\n```\n' "$_n" >"$_impl/README-$_sys.md"
    done
}
