"""A stand-in for PyTorch, for testing torch_selftest.py's logic where PyTorch is not installed
(TorchSelftestScriptTest). It runs nothing: every call the script makes is written, one a line,
to the file named by TORCH_STUB_LOG, and each "kernel" an op would launch is logged and handed
to the torch.profiler runs that are active, as CUDA events."""
import os
import types

_active = []  # torch.profiler.profile objects inside their `with`


def _note(what):
    with open(os.environ["TORCH_STUB_LOG"], "a") as f:
        f.write(what + "\n")


class _Event:
    def __init__(self, name, device_type):
        self.name = name
        self.device_type = device_type


class _Tensor:
    shape = (64, 1024)


def _kernel(name):
    _note("kernel " + name)
    for p in _active:
        p._events.append(_Event(name, autograd.DeviceType.CUDA))
        p._events.append(_Event("cudaLaunchKernel", autograd.DeviceType.CPU))


autograd = types.SimpleNamespace(DeviceType=types.SimpleNamespace(CPU=0, CUDA=1))


def manual_seed(seed):
    _note("manual_seed %d" % seed)


def device(name):
    return name


def randn(*shape, device=None):
    _kernel("Memcpy HtoD (Pageable -> Device)")  # a copy: torch_selftest.py leaves these out
    return _Tensor()


def _linear(x, w):
    for p in _active:  # cuBLAS may set its workspace: a CUDA event that is not a kernel
        p._events.append(_Event("Memset (Device)", autograd.DeviceType.CUDA))
    _kernel("sgemm")
    return _Tensor()


def _silu(y):
    _kernel("silu")
    return _Tensor()


def _layer_norm(y, shape):
    _kernel("layer_norm")
    return _Tensor()


nn = types.SimpleNamespace(functional=types.SimpleNamespace(linear=_linear, silu=_silu, layer_norm=_layer_norm))


def _synchronize():
    _note("synchronize")


cuda = types.SimpleNamespace(
    is_available=lambda: True,
    synchronize=_synchronize,
    profiler=types.SimpleNamespace(start=lambda: _note("cudaProfilerStart"), stop=lambda: _note("cudaProfilerStop")),
)
