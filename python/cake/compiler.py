# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Cake's C API (include/cake-c/Pipeline.h) through ctypes: parse Cake IR,
run a pass pipeline, collect the structured diagnostics, write bundles."""
import ctypes
import threading

from ._libs import find_library

_c = ctypes


class _StringRef(_c.Structure):
    _fields_ = [("data", _c.c_char_p), ("length", _c.c_size_t)]

    @classmethod
    def of(cls, text):
        data = text.encode() if isinstance(text, str) else bytes(text)
        ref = cls(data, len(data))
        ref._keep = data  # the bytes must outlive the call
        return ref

    def text(self):
        return _c.string_at(self.data, self.length).decode(
            "utf-8", "replace") if self.length else ""


class _Handle(_c.Structure):  # MlirContext, MlirModule, MlirOperation, ...
    _fields_ = [("ptr", _c.c_void_p)]


class _LogicalResult(_c.Structure):
    _fields_ = [("value", _c.c_int8)]


class _Note(_c.Structure):
    _fields_ = [("location", _StringRef), ("message", _StringRef)]


class _Diagnostic(_c.Structure):
    _fields_ = [("severity", _c.c_int), ("location", _StringRef),
                ("message", _StringRef), ("rule", _StringRef),
                ("role", _StringRef), ("resource", _StringRef),
                ("stage", _StringRef), ("hint", _StringRef),
                ("numNotes", _c.c_ssize_t), ("notes", _c.POINTER(_Note))]


_DiagnosticCallback = _c.CFUNCTYPE(None, _c.POINTER(_Diagnostic), _c.c_void_p)
_StringCallback = _c.CFUNCTYPE(None, _StringRef, _c.c_void_p)
# MlirDiagnosticSeverity
_SEVERITIES = {0: "error", 1: "warning", 2: "note", 3: "remark"}


class Diagnostic:
    """One diagnostic: severity, location ("file:line:col"), message, and
    for a rule's diagnostic its rule id, role, resource, stage and hint
    (empty strings where absent), and notes [(location, message)]."""

    __slots__ = ("severity", "location", "message", "rule", "role",
                 "resource", "stage", "hint", "notes")

    def __init__(self, d):
        self.severity = _SEVERITIES.get(d.severity, str(d.severity))
        for f in ("location", "message", "rule", "role", "resource", "stage",
                  "hint"):
            setattr(self, f, getattr(d, f).text())
        self.notes = [(d.notes[i].location.text(), d.notes[i].message.text())
                      for i in range(d.numNotes)]

    def as_dict(self):
        return {f: getattr(self, f) for f in self.__slots__}

    def __repr__(self):
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{self.location}: {self.severity}{rule}: {self.message}"


class Result:
    """What a pipeline run gave: ok, the diagnostics, the output module."""

    def __init__(self, ok, diagnostics, output):
        self.ok, self.diagnostics, self.output = ok, diagnostics, output

    @property
    def errors(self):
        return [d for d in self.diagnostics if d.severity == "error"]

    def __bool__(self):
        return self.ok


class CakeError(RuntimeError):
    """A pipeline or translation failed; .diagnostics says why."""

    def __init__(self, what, diagnostics):
        self.diagnostics = diagnostics
        detail = "; ".join(repr(d) for d in diagnostics if
                           d.severity == "error") or "no diagnostic"
        super().__init__(f"{what}: {detail}")


_lib = None
_lock = threading.Lock()


def _capi():
    global _lib
    with _lock:
        if _lib is None:
            lib = find_library("libCakeC.so")
            lib.mlirCakeGetVersion.restype = _c.c_char_p
            lib.mlirContextCreate.restype = _Handle
            lib.mlirContextDestroy.argtypes = [_Handle]
            lib.mlirDialectRegistryCreate.restype = _Handle
            lib.mlirDialectRegistryDestroy.argtypes = [_Handle]
            lib.mlirCakeRegisterAllDialects.argtypes = [_Handle]
            lib.mlirContextAppendDialectRegistry.argtypes = [_Handle, _Handle]
            lib.mlirCakeRunPipelineOnSource.argtypes = [
                _Handle, _StringRef, _StringRef, _StringRef,
                _DiagnosticCallback, _c.c_void_p, _StringCallback,
                _c.c_void_p]
            lib.mlirCakeRunPipelineOnSource.restype = _LogicalResult
            lib.mlirModuleCreateParse.argtypes = [_Handle, _StringRef]
            lib.mlirModuleCreateParse.restype = _Handle
            lib.mlirModuleGetOperation.argtypes = [_Handle]
            lib.mlirModuleGetOperation.restype = _Handle
            lib.mlirModuleDestroy.argtypes = [_Handle]
            for name in ("mlirCakeWriteBundleJson", "mlirCakeWritePtx",
                         "mlirCakeWriteKernelSummaryJson"):
                fn = getattr(lib, name)
                fn.argtypes = [_Handle, _StringCallback, _c.c_void_p]
                fn.restype = _LogicalResult
            _lib = lib
    return _lib


def library_version():
    """The version libCakeC.so reports (mlirCakeGetVersion)."""
    return _capi().mlirCakeGetVersion().decode()


class _Session:
    """One MLIR context with Cake's dialects, and the diagnostics and
    output it collected."""

    def __init__(self):
        self.lib = _capi()
        self.ctx = self.lib.mlirContextCreate()
        registry = self.lib.mlirDialectRegistryCreate()
        self.lib.mlirCakeRegisterAllDialects(registry)
        self.lib.mlirContextAppendDialectRegistry(self.ctx, registry)
        self.lib.mlirDialectRegistryDestroy(registry)
        self.diagnostics, self.chunks = [], []
        self.on_diagnostic = _DiagnosticCallback(
            lambda d, _: self.diagnostics.append(Diagnostic(d.contents)))
        self.on_output = _StringCallback(
            lambda s, _: self.chunks.append(s.text()))

    def run(self, text, pipeline, name):
        self.chunks = []
        r = self.lib.mlirCakeRunPipelineOnSource(
            self.ctx, _StringRef.of(text), _StringRef.of(name),
            _StringRef.of(pipeline), self.on_diagnostic, None,
            self.on_output, None)
        return bool(r.value), "".join(self.chunks)

    def translate(self, text, writer):
        module = self.lib.mlirModuleCreateParse(self.ctx, _StringRef.of(text))
        if not module.ptr:
            return False, ""
        try:
            self.chunks = []
            r = getattr(self.lib, writer)(
                self.lib.mlirModuleGetOperation(module), self.on_output, None)
            return bool(r.value), "".join(self.chunks)
        finally:
            self.lib.mlirModuleDestroy(module)

    def close(self):
        self.lib.mlirContextDestroy(self.ctx)


def run_pipeline(text, pipeline, name="<python>"):
    """Parses `text` (Cake IR), runs `pipeline` (a textual pass pipeline on
    builtin.module, e.g. "cake-verify"); returns a Result whose output is
    the resulting module's text (empty on failure)."""
    s = _Session()
    try:
        ok, out = s.run(text, pipeline, name)
        return Result(ok, s.diagnostics, out if ok else "")
    finally:
        s.close()


def verify(text, name="<python>"):
    """Runs cake-verify on `text`: Result.ok, and every diagnostic with its
    rule, role, resource and stage."""
    return run_pipeline(text, "cake-verify", name)


def compile_bundle(text, name="<python>", options=""):
    """Verifies and lowers `text` (cake-verify, cake-lower{options}, which
    needs ptxas) and returns the bundle JSON (cubin and launch metadata,
    what libcake_runtime loads). Raises CakeError with the diagnostics."""
    lower = f"cake-lower{{{options}}}" if options else "cake-lower"
    s = _Session()
    try:
        ok, lowered = s.run(text, f"cake-verify,{lower}", name)
        if not ok:
            raise CakeError(f"{name}: did not verify and lower",
                            s.diagnostics)
        ok, bundle = s.translate(lowered, "mlirCakeWriteBundleJson")
        if not ok:
            raise CakeError(f"{name}: no bundle", s.diagnostics)
        return bundle
    finally:
        s.close()
