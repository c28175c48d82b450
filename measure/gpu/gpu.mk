# measure/gpu/gpu.mk: builds bin/perfrepro-gpu, the CUDA / cuBLASLt / NCCL
# workloads, where nvcc exists (`make gpu`; a message and nothing else where
# it does not).  Included at the end of the main Makefile (after `all`, so
# that stays the default goal: `include measure/gpu/gpu.mk`) or used alone:
#   make -f measure/gpu/gpu.mk gpu
# perfrepro-gpu depends on CUDA, cuBLASLt, NCCL and libc only (no Jansson,
# PCRE2...): it builds on a GPU machine that has nothing else.
#
# Variables (all overridable):
#   NVCC        nvcc (default: the one on PATH, else /usr/local/cuda/bin/nvcc)
#   CUDA_HOME   the toolkit (default: nvcc's parent folder)
#   NCCL_HOME   NCCL's folder with include/nccl.h and lib/libnccl.so.2
#               (default: CUDA_HOME; for pip's nvidia-nccl-cu13, the
#               site-packages/nvidia/nccl folder).  Without nccl.h the
#               collectives are left out (-DPR_NO_NCCL).
#   CUBLAS_HOME cuBLASLt's folder (default: CUDA_HOME)
#   GPU_ARCH    -gencode flags (default: sm_80, sm_90 and compute_90 PTX for
#               later GPUs)
#   GPU_MPI     auto (default: with MPI when pkg-config knows ompi/mpich or
#               mpicc exists), 0 (never), 1 (required)

GPU_BUILD ?= build/gpu
GPU_BIN ?= bin/perfrepro-gpu
# The host half (gpuhost*.c) is plain C: $(CC), else gcc (nvcc needs it anyway).
GPU_CC ?= $(if $(shell command -v $(CC) 2>/dev/null),$(CC),gcc)

NVCC ?= $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))
NCCL_HOME ?= $(CUDA_HOME)
CUBLAS_HOME ?= $(CUDA_HOME)
GPU_ARCH ?= -gencode arch=compute_80,code=sm_80 \
            -gencode arch=compute_90,code=[sm_90,compute_90]

# The library folder of a prefix: lib64 (toolkits) or lib (pip packages).
gpu_libdir = $(firstword $(wildcard $(1)/lib64 $(1)/targets/x86_64-linux/lib $(1)/lib) $(1)/lib)
NCCL_LIBDIR ?= $(call gpu_libdir,$(NCCL_HOME))
CUBLAS_LIBDIR ?= $(call gpu_libdir,$(CUBLAS_HOME))
CUDA_LIBDIR ?= $(call gpu_libdir,$(CUDA_HOME))

# pip's NCCL ships libnccl.so.2 without the libnccl.so link: name the file.
GPU_NCCL_H := $(wildcard $(NCCL_HOME)/include/nccl.h $(CUDA_HOME)/include/nccl.h)
ifneq ($(GPU_NCCL_H),)
GPU_NCCL_FLAGS := -I$(NCCL_HOME)/include
GPU_NCCL_LIBS := -L$(NCCL_LIBDIR) -Xlinker -l:libnccl.so.2 -Xlinker -rpath=$(NCCL_LIBDIR)
else
GPU_NCCL_FLAGS := -DPR_NO_NCCL
GPU_NCCL_LIBS :=
endif

GPU_MPI ?= auto
GPU_MPICC := $(shell command -v mpicc 2>/dev/null)
gpu_comma := ,
ifneq ($(GPU_MPI),0)
# Quiet where pkg-config itself is missing (a fresh machine): no MPI then.
GPU_MPI_PKG := $(shell { pkg-config --exists ompi && echo ompi || { pkg-config --exists mpich && echo mpich; }; } 2>/dev/null)
ifneq ($(GPU_MPI_PKG),)
GPU_MPI_CFLAGS := -DPR_WITH_MPI $(shell pkg-config --cflags $(GPU_MPI_PKG) 2>/dev/null)
GPU_MPI_LIBS := $(shell pkg-config --libs $(GPU_MPI_PKG) 2>/dev/null)
else ifneq ($(GPU_MPICC),)
# OpenMPI's wrapper says --showme:*; MPICH's -compile_info / -link_info.
GPU_MPI_CFLAGS := -DPR_WITH_MPI $(filter -I% -D%,$(shell $(GPU_MPICC) --showme:compile 2>/dev/null || $(GPU_MPICC) -compile_info 2>/dev/null))
GPU_MPI_LIBS := $(filter -L% -l%,$(shell $(GPU_MPICC) --showme:link 2>/dev/null || $(GPU_MPICC) -link_info 2>/dev/null))
else ifeq ($(GPU_MPI),1)
$(error GPU_MPI=1 but neither pkg-config (ompi, mpich) nor mpicc finds MPI)
endif
endif
# nvcc passes -Wl, options on to the host linker with -Xlinker.
GPU_MPI_LIBS := $(patsubst -Wl$(gpu_comma)%,-Xlinker %,$(GPU_MPI_LIBS))

GPU_HOST_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Wformat=2 -Imeasure
# NCCL's and cuBLAS's own headers before the toolkit's (a pip NCCL's nccl.h
# must match its library).
GPU_NVCC_FLAGS := -std=c++17 -O2 -g -lineinfo $(GPU_ARCH) -Imeasure -Imeasure/gpu \
                  $(GPU_NCCL_FLAGS) -I$(CUBLAS_HOME)/include -I$(CUDA_HOME)/include \
                  $(GPU_MPI_CFLAGS) -Xcompiler -Wall,-Wextra
# WERROR=1 (CI) turns warnings into errors here too.
ifeq ($(WERROR),1)
GPU_HOST_CFLAGS += -Werror
GPU_NVCC_FLAGS += -Werror all-warnings -Xcompiler -Werror
endif
# pip's cuBLAS also has only the versioned file (libcublasLt.so.13).
GPU_CUBLASLT := $(if $(wildcard $(CUBLAS_LIBDIR)/libcublasLt.so),-lcublasLt,$(if $(wildcard \
                $(CUBLAS_LIBDIR)/libcublasLt.so.*),-Xlinker -l:$(notdir $(firstword $(sort \
                $(wildcard $(CUBLAS_LIBDIR)/libcublasLt.so.*)))),-lcublasLt))
GPU_LIBS := -L$(CUDA_LIBDIR) -L$(CUBLAS_LIBDIR) $(GPU_CUBLASLT) -lcudart $(GPU_NCCL_LIBS) \
            $(GPU_MPI_LIBS) -ldl -Xlinker -rpath=$(CUBLAS_LIBDIR) -Xlinker -rpath=$(CUDA_LIBDIR)

GPU_CU_SRC := measure/gpu/gpu_main.cu measure/gpu/bw.cu measure/gpu/gemm.cu \
              measure/gpu/nccl.cu measure/gpu/env.cu
GPU_HOST_SRC := $(sort $(wildcard measure/gpu/*.c))
GPU_HOST_OBJS := $(GPU_HOST_SRC:measure/gpu/%.c=$(GPU_BUILD)/%.o)
GPU_OBJ := $(GPU_CU_SRC:measure/gpu/%.cu=$(GPU_BUILD)/%.o) $(GPU_HOST_OBJS)

.PHONY: gpu gpu-clean

ifneq ($(NVCC),)
gpu: $(GPU_BIN)

# Flags are part of the build: a changed NCCL_HOME or MPI rebuilds.
GPU_FLAGS_STAMP := $(GPU_BUILD)/flags.$(shell printf '%s' '$(NVCC) $(GPU_NVCC_FLAGS) $(GPU_LIBS)' | cksum | cut -d' ' -f1)
$(GPU_FLAGS_STAMP):
	@mkdir -p $(@D)
	@rm -f $(GPU_BUILD)/flags.*
	@touch $@

$(GPU_HOST_OBJS): $(GPU_BUILD)/%.o: measure/gpu/%.c measure/gpu/gpuhost.h measure/gpu/gpuhost_int.h $(GPU_FLAGS_STAMP)
	@mkdir -p $(@D)
	$(GPU_CC) $(GPU_HOST_CFLAGS) -c $< -o $@

$(GPU_BUILD)/%.o: measure/gpu/%.cu measure/gpu/gpu.h measure/gpu/gpuhost.h $(GPU_FLAGS_STAMP)
	@mkdir -p $(@D)
	$(NVCC) $(GPU_NVCC_FLAGS) -c $< -o $@

$(GPU_BIN): $(GPU_OBJ)
	@mkdir -p $(@D)
	$(NVCC) $(GPU_ARCH) -o $@ $(GPU_OBJ) $(GPU_LIBS)
	@echo "built $@ (NCCL: $(if $(GPU_NCCL_H),$(NCCL_LIBDIR),none); MPI: $(if $(GPU_MPI_CFLAGS),yes,no))"
else
gpu:
	@echo "gpu: nvcc not found (set NVCC=/path/to/nvcc): bin/perfrepro-gpu not built"
endif

gpu-clean:
	rm -rf $(GPU_BUILD) $(GPU_BIN)
