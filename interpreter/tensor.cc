#include "interpreter/tensor.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "glog/logging.h"
#include "interpreter/cpu/thread_pool.h"
#include "interpreter/dispatch.h"
#include "interpreter/tensor_buffer_pool.h"
#include "interpreter/tensor_limit.h"
#include "ir/numeric/bfloat16.h"
#include "ir/numeric/float16.h"
#include "ir/numeric/float4.h"
#include "ir/numeric/float8.h"
#include "ir/numeric/narrow_float.h"
#include "ir/status_macros.h"

namespace onnx_opt::interpreter {

int StorageSize(DataType type) {
  switch (type) {
    case DataType::kString:
    case DataType::kUndefined:
      return 0;
    default: {
      const int bits = ir::ElementBitWidth(type);
      return bits <= 8 ? (bits == 0 ? 0 : 1) : bits / 8;
    }
  }
}

int64_t NumElements(absl::Span<const int64_t> dims) {
  // An empty tensor has no elements however large its other dims ([2^40, 2^40, 0]).
  for (int64_t d : dims) {
    if (d == 0) return 0;
  }
  int64_t n = 1;
  for (int64_t d : dims) {
    // Saturates instead of overflowing, so that size checks against limits stay right.
    if (__builtin_mul_overflow(n, d, &n)) return std::numeric_limits<int64_t>::max();
  }
  return n;
}

std::string DimsToString(absl::Span<const int64_t> dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

namespace {
// One cache line; an array of them is a 64-byte aligned buffer.
struct alignas(64) CacheLine {
  char bytes[64];
};
// The buffer and its reference count in one allocation (tiny tensors pay for allocations, not
// work).
std::shared_ptr<void> AllocateAligned(size_t bytes, bool zero_fill = true) {
  if (TensorBufferPool* pool = TensorBufferPool::Current();
      pool != nullptr && bytes >= TensorBufferPool::kPooledFrom &&
      bytes <= TensorBufferPool::kPooledUpTo) {
    std::shared_ptr<void> buffer = pool->Take(bytes);
    if (buffer == nullptr)
      LOG(FATAL) << "out of memory allocating " << bytes << " bytes for a tensor";
    if (zero_fill) std::memset(buffer.get(), 0, bytes);
    return buffer;
  }
  const size_t lines = std::max<size_t>((bytes + 63) / 64, 1);
  std::shared_ptr<CacheLine[]> buffer;
  try {
    buffer = std::make_shared_for_overwrite<CacheLine[]>(lines);
  } catch (const std::bad_alloc&) {
    LOG(FATAL) << "out of memory allocating " << lines * 64 << " bytes for a tensor";
  }
  void* data = buffer.get();
  if (zero_fill) std::memset(data, 0, lines * 64);
  return std::shared_ptr<void>(std::move(buffer), data);
}
bool IsSubByte(DataType t) {
  const int bits = ir::ElementBitWidth(t);
  return bits > 0 && bits < 8;
}
}  // namespace

Tensor::Tensor(DataType type, std::vector<int64_t> dims) : Tensor(type, std::move(dims), true) {}

Tensor Tensor::Uninitialized(DataType type, std::vector<int64_t> dims) {
  return Tensor(type, std::move(dims), false);
}

Tensor::Tensor(DataType type, std::vector<int64_t> dims, bool zero_fill)
    : dtype_(type), dims_(std::move(dims)) {
  size_ = NumElements(dims_);
  if (size_ < 0) size_ = 0;
  const uint64_t element_bytes =
      type == DataType::kString ? sizeof(std::string) : std::max(StorageSize(type), 1);
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(size_), element_bytes, &bytes) ||
      bytes > MaxTensorBytes()) {
    throw TensorTooLarge(absl::StrCat("a tensor of shape ", DimsToString(dims_), " and type ",
                                      ir::DataTypeName(type), " would need more than the ",
                                      MaxTensorBytes(),
                                      " bytes the interpreter may allocate for one tensor"));
  }
  if (type == DataType::kString) {
    strings_ = std::make_shared<std::vector<std::string>>(size_);
  } else {
    auto mem = AllocateAligned(static_cast<size_t>(size_) * StorageSize(type), zero_fill);
    data_ = static_cast<const char*>(mem.get());
    holder_ = std::move(mem);
  }
}

absl::StatusOr<Tensor> Tensor::FromIr(const ir::Tensor& t) {
  const DataType type = t.data_type();
  if (!ir::IsKnownDataType(type)) {
    return absl::UnimplementedError(absl::StrCat(
        "tensor '", t.name(), "' has unsupported element type ", ir::DataTypeName(type)));
  }
  for (int64_t d : t.dims()) {
    if (d < 0)
      return absl::InvalidArgumentError(absl::StrCat("tensor '", t.name(), "' has a negative dim"));
  }
  const int64_t n = NumElements(t.dims());
  if (type == DataType::kString) {
    if (static_cast<int64_t>(t.strings().size()) != n) {
      return absl::InvalidArgumentError(absl::StrCat("string tensor '", t.name(), "' has ",
                                                     t.strings().size(), " strings for dims ",
                                                     DimsToString(t.dims())));
    }
    Tensor out(type, t.dims());
    *out.strings_ = t.strings();
    return out;
  }
  const uint64_t need = ir::RawByteSize(type, n);
  if (t.raw_size() != need) {
    return absl::InvalidArgumentError(absl::StrCat("tensor '", t.name(), "' has ", t.raw_size(),
                                                   " data bytes, expected ", need, " for ",
                                                   ir::DataTypeName(type), DimsToString(t.dims())));
  }
  if (IsSubByte(type)) {
    Tensor out(type, t.dims());
    const int bits = ir::ElementBitWidth(type);
    const int per_byte = 8 / bits;
    const uint8_t mask = static_cast<uint8_t>((1 << bits) - 1);
    const uint8_t* src = reinterpret_cast<const uint8_t*>(t.raw_data());
    uint8_t* dst = out.mutable_data<uint8_t>();
    const bool is_signed = ir::IsSignedInteger(type);
    // Byte by byte (a division per element made loading a 4-bit LLM's weights take seconds).
    for (int64_t i = 0; i < n; i += per_byte) {
      const uint8_t byte = src[i / per_byte];
      for (int e = 0; e < per_byte && i + e < n; ++e) {
        uint8_t v = (byte >> (e * bits)) & mask;
        if (is_signed && (v >> (bits - 1))) v |= static_cast<uint8_t>(~mask);  // sign-extend
        dst[i + e] = v;
      }
    }
    return out;
  }
  const int es = StorageSize(type);
  Tensor out;
  out.dtype_ = type;
  out.dims_ = t.dims();
  out.size_ = n;
  const uintptr_t addr = reinterpret_cast<uintptr_t>(t.raw_data());
  if (t.raw_data() != nullptr && addr % std::max(es, 1) == 0 &&
      addr % alignof(std::max_align_t) == 0) {
    out.holder_ = t.buffer();
    out.data_ = t.raw_data();
  } else {
    // Unaligned: a view into a mapped model file (raw_data sits anywhere in it) or external data.
    // Copied in pieces that release the mapped pages behind, so the file is not resident twice.
    auto mem = AllocateAligned(need);
    if (need > 0) {
      char* to = static_cast<char*>(mem.get());
      t.ScanRaw([&to](const char* chunk, size_t n) {
        std::memcpy(to, chunk, n);
        to += n;
      });
    }
    out.data_ = static_cast<const char*>(mem.get());
    out.holder_ = std::move(mem);
  }
  return out;
}

ir::Tensor Tensor::ToIr() const {
  ir::Tensor t(dtype_, dims_);
  if (dtype_ == DataType::kString) {
    if (strings_) t.mutable_strings() = *strings_;
    return t;
  }
  if (IsSubByte(dtype_)) {
    const int bits = ir::ElementBitWidth(dtype_);
    const int per_byte = 8 / bits;
    const uint8_t mask = static_cast<uint8_t>((1 << bits) - 1);
    std::string bytes(ir::RawByteSize(dtype_, size_), '\0');
    const uint8_t* src = data<uint8_t>();
    for (int64_t i = 0; i < size_; ++i) {
      bytes[i / per_byte] = static_cast<char>(static_cast<uint8_t>(bytes[i / per_byte]) |
                                              ((src[i] & mask) << ((i % per_byte) * bits)));
    }
    t.SetRawData(std::move(bytes));
    return t;
  }
  t.SetRawData(std::string(data_ ? data_ : "", static_cast<size_t>(size_) * StorageSize(dtype_)));
  return t;
}

Tensor Tensor::ReusedAs(DataType type, std::vector<int64_t> dims) const {
  Tensor t = *this;
  t.dtype_ = type;
  t.dims_ = std::move(dims);
  t.size_ = NumElements(t.dims_);
  CHECK_EQ(t.size_ * StorageSize(type), size_ * StorageSize(dtype_))
      << "in-place output of another byte size";
  return t;
}

Tensor Tensor::Reshaped(std::vector<int64_t> dims) const {
  Tensor t = *this;
  t.dims_ = std::move(dims);
  return t;
}

Tensor Tensor::Clone() const {
  Tensor t(dtype_, dims_);
  if (dtype_ == DataType::kString) {
    if (strings_) *t.strings_ = *strings_;
  } else if (size_ > 0) {
    std::memcpy(t.mutable_raw(), data_, static_cast<size_t>(size_) * StorageSize(dtype_));
  }
  return t;
}

std::string Tensor::ShapeString() const {
  return absl::StrCat(ir::DataTypeName(dtype_), DimsToString(dims_));
}

namespace {

float NarrowToFloat(DataType t, const char* p) {
  switch (t) {
    case DataType::kFloat16: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return ir::HalfToFloat(v);
    }
    case DataType::kBfloat16: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return ir::Bfloat16ToFloat(v);
    }
    case DataType::kFloat4E2M1:
      return ir::Float4E2M1ToFloat(static_cast<uint8_t>(*p));
    default:
      return ir::Float8ToFloat(t, static_cast<uint8_t>(*p));
  }
}

void FloatToNarrow(DataType t, float f, char* p, bool saturate) {
  switch (t) {
    case DataType::kFloat16: {
      const uint16_t v = ir::FloatToHalf(f);
      std::memcpy(p, &v, 2);
      return;
    }
    case DataType::kBfloat16: {
      const uint16_t v = ir::FloatToBfloat16(f);
      std::memcpy(p, &v, 2);
      return;
    }
    case DataType::kFloat4E2M1:
      *p = static_cast<char>(ir::FloatToFloat4E2M1(f));
      return;
    default:
      *p = static_cast<char>(ir::FloatToFloat8(t, f, saturate));
      return;
  }
}

template <typename To, typename From>
To ConvertScalar(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    if (std::isnan(v)) return To(0);
    const double d = static_cast<double>(v);
    if (d >= static_cast<double>(std::numeric_limits<To>::max()))
      return std::numeric_limits<To>::max();
    if (d <= static_cast<double>(std::numeric_limits<To>::min()))
      return std::numeric_limits<To>::min();
    if constexpr (std::is_unsigned_v<To>) {
      if (d < 0) return static_cast<To>(static_cast<int64_t>(d));
    }
    return static_cast<To>(v);
  } else {
    return static_cast<To>(v);
  }
}

// Elements per task of a numeric cast spread over the threads.
constexpr int64_t kCastChunk = int64_t{1} << 15;

std::string FloatToString(double v, bool is_double) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "INF" : "-INF";
  char buf[64];
  std::snprintf(buf, sizeof(buf), is_double ? "%.17g" : "%.9g", v);
  return buf;
}

}  // namespace

Tensor WidenToFloat(const Tensor& in) {
  if (!ir::IsNarrowFloat(in.dtype())) return in;
  Tensor out(DataType::kFloat, in.dims());
  float* o = out.mutable_data<float>();
  const int es = in.element_size();
  for (int64_t i = 0; i < in.size(); ++i) o[i] = NarrowToFloat(in.dtype(), in.raw() + i * es);
  return out;
}

absl::StatusOr<Tensor> CastTensor(const Tensor& in, DataType to, bool saturate) {
  const DataType from = in.dtype();
  if (from == to) return in;
  const int64_t n = in.size();
  // Narrow floats go through float.
  if (ir::IsNarrowFloat(from)) {
    return CastTensor(WidenToFloat(in), to, saturate);
  }
  if (ir::IsNarrowFloat(to)) {
    Tensor f = in;
    if (from != DataType::kFloat) {
      if (from == DataType::kString) {
        ASSIGN_OR_RETURN(auto r, CastTensor(in, DataType::kFloat, saturate));
        f = r;
      } else if (from == DataType::kDouble && to != DataType::kFloat16) {
        ASSIGN_OR_RETURN(auto r, CastTensor(in, DataType::kFloat, saturate));
        f = r;
      } else if (from == DataType::kDouble) {
        // double -> half directly would need a second rounding path; go through float.
        ASSIGN_OR_RETURN(auto r, CastTensor(in, DataType::kFloat, saturate));
        f = r;
      } else {
        ASSIGN_OR_RETURN(auto r, CastTensor(in, DataType::kFloat, saturate));
        f = r;
      }
    }
    Tensor out(to, in.dims());
    const float* src = f.data<float>();
    const int es = out.element_size();
    for (int64_t i = 0; i < n; ++i) FloatToNarrow(to, src[i], out.mutable_raw() + i * es, saturate);
    return out;
  }
  const int to_bits = ir::ElementBitWidth(to);
  if (to_bits > 0 && to_bits < 8 && !ir::IsNarrowFloat(to)) {
    // Sub-byte integers keep the low bits (two's complement wrap), like numpy's astype.
    ASSIGN_OR_RETURN(Tensor wide, CastTensor(in, DataType::kInt64, saturate));
    Tensor out(to, in.dims());
    const int64_t* w = wide.data<int64_t>();
    uint8_t* o = out.mutable_data<uint8_t>();
    const uint8_t mask = static_cast<uint8_t>((1 << to_bits) - 1);
    const bool is_signed = ir::IsSignedInteger(to);
    for (int64_t i = 0; i < n; ++i) {
      uint8_t v = static_cast<uint8_t>(w[i]) & mask;
      if (is_signed && (v >> (to_bits - 1))) v |= static_cast<uint8_t>(~mask);
      o[i] = v;
    }
    return out;
  }
  // Every element is written below: no zero fill first (strings are constructed either way).
  Tensor out =
      to == DataType::kString ? Tensor(to, in.dims()) : Tensor::Uninitialized(to, in.dims());
  if (from == DataType::kString) {
    const std::string* s = in.data<std::string>();
    absl::Status st = DispatchCastTarget(to, [&](auto tag) -> absl::Status {
      using To = decltype(tag);
      To* o = out.mutable_data<To>();
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<To, bool>) {
          o[i] = s[i] == "1" || s[i] == "true" || s[i] == "True";
        } else if constexpr (std::is_floating_point_v<To>) {
          o[i] = static_cast<To>(std::strtod(s[i].c_str(), nullptr));
        } else if constexpr (std::is_signed_v<To>) {
          o[i] = static_cast<To>(std::strtoll(s[i].c_str(), nullptr, 10));
        } else {
          o[i] = static_cast<To>(std::strtoull(s[i].c_str(), nullptr, 10));
        }
      }
      return absl::OkStatus();
    });
    if (!st.ok()) return st;
    return out;
  }
  return DispatchCastSource(from, [&](auto ftag) -> absl::StatusOr<Tensor> {
    using From = decltype(ftag);
    const From* src = in.data<From>();
    if (to == DataType::kString) {
      std::string* o = out.mutable_data<std::string>();
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (std::is_floating_point_v<From>) {
          o[i] = FloatToString(src[i], std::is_same_v<From, double>);
        } else if constexpr (std::is_same_v<From, bool>) {
          o[i] = src[i] ? "1" : "0";
        } else {
          o[i] = std::to_string(src[i]);
        }
      }
      return out;
    }
    absl::Status st = DispatchCastTarget(to, [&](auto ttag) -> absl::Status {
      using To = decltype(ttag);
      To* o = out.mutable_data<To>();
      // Elementwise, so on the threads in fixed chunks (quantized models cast every convolution's
      // int32 output to float).
      ParallelFor(n, kCastChunk, [&](int64_t begin, int64_t end) {
        int64_t i = begin;
        if constexpr (std::is_same_v<To, float> && std::is_same_v<From, int32_t>) {
          // A block of a fixed count, which the compiler turns into vector conversions (a loop
          // of unknown length stays scalar at -O2): quantized convolutions' sums.
          constexpr int64_t kBlock = 16;
          for (; i + kBlock <= end; i += kBlock) {
            for (int64_t j = 0; j < kBlock; ++j) o[i + j] = static_cast<float>(src[i + j]);
          }
        }
        for (; i < end; ++i) o[i] = ConvertScalar<To, From>(src[i]);
      });
      return absl::OkStatus();
    });
    if (!st.ok()) return st;
    return out;
  });
}

}  // namespace onnx_opt::interpreter
