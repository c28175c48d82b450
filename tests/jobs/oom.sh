#!/bin/sh
# Fake job: runs out of GPU memory the way PyTorch reports it.
#   oom.sh          one record, the message, exit 1
#   oom.sh masked   the message, exit 0 (a `python ... | tee log` pipeline
#                   hides the status), no records
#   oom.sh survived the message as a warning, then records, exit 0
echo "epoch 0, batch 1, ips: 100.0 samples/sec"
echo "Traceback (most recent call last):" >&2
echo "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total capacity)" >&2
case "${1:-}" in
  masked) exit 0 ;;
  survived)
    for i in 2 3 4 5; do echo "epoch 0, batch $i, ips: 10$i.0 samples/sec"; done
    exit 0 ;;
esac
exit 1
