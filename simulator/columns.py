"""Arrow columns over the kernels' NumPy arrays, without copies and without pandas.

Not ``pa.array``: its checks for pandas types import pandas, which a run never
otherwise needs (docs/performance.md P11).
"""
from __future__ import annotations

import numpy as np
import pyarrow as pa


def column(values: np.ndarray) -> pa.Array:
    """An Arrow array over ``values`` without a copy (bool: bit-packed)."""
    values = np.ascontiguousarray(values)
    if values.dtype == np.bool_:
        return pa.Array.from_buffers(pa.bool_(), values.size,
                                     [None, pa.py_buffer(np.packbits(values, bitorder="little"))])
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), values.size, [None, pa.py_buffer(values)])


def dictionary_column(codes: np.ndarray, names) -> pa.DictionaryArray:
    """Dictionary-encoded strings: ``names[codes[i]]`` in row ``i`` (int8 codes)."""
    encoded = [name.encode() for name in names]
    offsets = np.cumsum([0] + [len(e) for e in encoded], dtype=np.int32)
    dictionary = pa.Array.from_buffers(pa.string(), len(encoded),
                                       [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))])
    return pa.DictionaryArray.from_arrays(column(codes.astype(np.int8, copy=False)), dictionary)
