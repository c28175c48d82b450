#!/bin/sh
# The seed report's train.sh for pytorch/examples/imagenet (kept as the seed
# gives it, with the log written where perfrepro-measure expects stdout).
#   train.sh MODEL GPU_LIST BATCH_SIZE_PER_GPU
MODEL=${1:-"resnet50"}
gpus=${2:-"0"}
bz_per_device=${3:-128}

NUM_GPU=$(echo "$gpus" | awk -F, '{print NF}')
total_bz=$((bz_per_device * NUM_GPU))
LR=$(awk -v total_bz="$total_bz" 'BEGIN{print total_bz / 1000}')
echo "Use gpus: $gpus"
echo "Batch size : $bz_per_device"
echo "Learning rate: $LR"

export CUDA_VISIBLE_DEVICES=${gpus}
DATA_DIR=${DATA_DIR:-/datasets/ImageNet/imagenet_1k/}

exec python3 main.py "$DATA_DIR" \
        --arch "$MODEL" \
        --epochs 1 \
        --batch-size "$total_bz" \
        --lr "$LR" \
        --momentum 0.9 \
        --print-freq 1
