#!/usr/bin/env python3
"""Synthetic-data training throughput, for perfrepro's PyTorch suites.

Trains torchvision ResNet-50 (images/s) or a GPT-2-class model built from a
config with random weights (tokens/s) on random data, so it runs wherever
PyTorch and a GPU exist: no dataset, no download.  One process per GPU under
torchrun (DistributedDataParallel over NCCL), or a single process.

Rank 0 prints one line per step, the global rate of that step:
    perfrepro-step 12 time_s 0.31520 cpu_s 0.58210 throughput: 812.40 images/s
which the suite's rule reads (keyword "throughput:", scope global).  cpu_s is
the CPU time the process spent in the step (all its threads, user and
system), beside the wall time: on a CPU run, cpu_s far below threads x
time_s says the threads waited (for a core, a lock, the BLAS); far above
the work it does says they spun (OpenMP's busy-waiting, issue 30).
"""
import argparse
import os
import sys
import time

import torch
import torch.distributed as dist


def build(args, device):
    if args.model in ("resnet50", "resnet18"):
        import torchvision
        # weights=None: random weights, nothing downloaded (torchvision 0.14's
        # keyword; the model is built from its code alone).
        model = getattr(torchvision.models, args.model)(weights=None).to(device)
        x = torch.randn(args.batch_size, 3, 224, 224, device=device)
        y = torch.randint(0, 1000, (args.batch_size,), device=device)
        loss_fn = torch.nn.CrossEntropyLoss()

        def step_loss(m):
            return loss_fn(m(x), y)
        return model, step_loss, args.batch_size, "images/s"
    from transformers import GPT2Config, GPT2LMHeadModel
    config = GPT2Config(n_layer=args.layers, n_embd=args.hidden, n_head=args.heads,
                        n_positions=args.seq_len, vocab_size=50257)
    model = GPT2LMHeadModel(config).to(device)
    ids = torch.randint(0, config.vocab_size, (args.batch_size, args.seq_len), device=device)

    def step_loss(m):
        return m(input_ids=ids, labels=ids).loss
    return model, step_loss, args.batch_size * args.seq_len, "tokens/s"


def train_cpu(args):
    """One process on the CPU: the same model, data and step lines as on a GPU."""
    if args.precision != "fp32":
        print("PERFREPRO_FAILURE: parse_error: --device cpu trains in fp32 only", file=sys.stderr)
        return 2
    torch.set_num_threads(args.threads or os.cpu_count() or 1)
    torch.manual_seed(0)
    device = torch.device("cpu")
    model, step_loss, samples, unit = build(args, device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    print("perfrepro-config model=%s batch_size=%d precision=fp32 device=cpu threads=%d torch=%s"
          % (args.model, args.batch_size, torch.get_num_threads(), torch.__version__), flush=True)
    for step in range(args.steps):
        t0, c0 = time.perf_counter(), time.process_time()
        opt.zero_grad(set_to_none=True)
        loss = step_loss(model)
        loss.backward()
        opt.step()
        dt, dc = time.perf_counter() - t0, time.process_time() - c0
        print("perfrepro-step %d time_s %.5f cpu_s %.5f throughput: %.2f %s"
              % (step, dt, dc, samples / dt, unit), flush=True)
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", choices=["resnet50", "resnet18", "gpt2"], required=True)
    p.add_argument("--device", choices=["cuda", "cpu"], default="cuda",
                   help="cpu: one process on the CPU (fp32 only), for machines without a GPU")
    p.add_argument("--threads", type=int, default=0,
                   help="with --device cpu: torch.set_num_threads (0: one per core)")
    p.add_argument("--batch-size", type=int, required=True, help="per GPU")
    p.add_argument("--precision", choices=["fp32", "tf32", "amp", "bf16"], default="fp32")
    p.add_argument("--steps", type=int, default=60)
    p.add_argument("--seq-len", type=int, default=1024)
    p.add_argument("--layers", type=int, default=12)
    p.add_argument("--hidden", type=int, default=768)
    p.add_argument("--heads", type=int, default=12)
    args = p.parse_args()

    world = int(os.environ.get("WORLD_SIZE", "1"))
    rank = int(os.environ.get("RANK", "0"))
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    if args.device == "cpu":
        return train_cpu(args)
    if not torch.cuda.is_available():
        print("PERFREPRO_FAILURE: no_gpu: torch.cuda.is_available() is False", file=sys.stderr)
        return 3
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda", local_rank)
    if world > 1:
        dist.init_process_group("nccl")
    torch.backends.cuda.matmul.allow_tf32 = args.precision == "tf32"
    torch.backends.cudnn.allow_tf32 = args.precision == "tf32"
    torch.backends.cudnn.benchmark = True

    model, step_loss, samples, unit = build(args, device)
    if world > 1:
        model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[local_rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    dtype = {"amp": torch.float16, "bf16": torch.bfloat16}.get(args.precision)
    scaler = torch.cuda.amp.GradScaler(enabled=args.precision == "amp")
    if rank == 0:
        print("perfrepro-config model=%s batch_size=%d precision=%s world_size=%d torch=%s gpu=%s"
              % (args.model, args.batch_size, args.precision, world, torch.__version__,
                 torch.cuda.get_device_name(device)), flush=True)
    for step in range(args.steps):
        torch.cuda.synchronize()
        t0, c0 = time.perf_counter(), time.process_time()
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=dtype, enabled=dtype is not None):
            loss = step_loss(model)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        torch.cuda.synchronize()
        dt, dc = time.perf_counter() - t0, time.process_time() - c0
        if rank == 0:
            print("perfrepro-step %d time_s %.5f cpu_s %.5f throughput: %.2f %s"
                  % (step, dt, dc, samples * world / dt, unit), flush=True)
    if world > 1:
        dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
