#include "schema/checker/tensor_check.h"

#include <cstdint>
#include <optional>
#include <string_view>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "ir/data_type.h"

namespace onnx_opt::schema::checker {
namespace {

std::string DimsString(const std::vector<int64_t>& dims) {
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i) absl::StrAppend(&out, i ? "," : "", dims[i]);
  return out + "]";
}

// onnx/docs/ExternalData.md: `location` (required) is a path relative to the model's folder;
// `offset` and `length` (optional) are non-negative byte counts. ONNX's checker refuses absolute
// locations and any that leave the folder through "..".
void CheckExternalData(const ir::Tensor& t, const std::string& what,
                       std::vector<std::string>* problems) {
  absl::flat_hash_set<std::string> keys;
  bool has_location = false;
  for (const auto& [key, value] : t.external_data()) {
    if (!keys.insert(key).second) {
      problems->push_back(
          absl::StrCat(what, ": external data key '", key, "' appears more than once"));
    }
    if (key == "location") {
      has_location = true;
      if (value.empty()) {
        problems->push_back(absl::StrCat(what, ": external data location is empty"));
      } else if (value.front() == '/' || value.front() == '\\') {
        problems->push_back(
            absl::StrCat(what, ": external data location '", value,
                         "' is an absolute path; it must be relative to the model's "
                         "folder"));
      } else {
        for (absl::string_view part : absl::StrSplit(value, absl::ByAnyChar("/\\"))) {
          if (part == "..") {
            problems->push_back(absl::StrCat(what, ": external data location '", value,
                                             "' points outside the model's folder"));
            break;
          }
        }
      }
    } else if (key == "offset" || key == "length") {
      int64_t n = 0;
      if (!absl::SimpleAtoi(value, &n) || n < 0) {
        problems->push_back(absl::StrCat(what, ": external data ", key, " '", value,
                                         "' is not a non-negative integer"));
      }
    }
  }
  if (!has_location) {
    problems->push_back(
        absl::StrCat(what, ": stored externally but has no external data location"));
  }
  if (t.data_type() == ir::DataType::kString) {
    problems->push_back(absl::StrCat(what, ": string tensors cannot be stored as external data"));
  }
}

}  // namespace

void CheckTensor(const ir::Tensor& t, const std::string& what, std::vector<std::string>* problems) {
  const ir::DataType type = t.data_type();
  if (type == ir::DataType::kUndefined) {
    problems->push_back(absl::StrCat(what, ": element type is UNDEFINED, which is not allowed"));
    return;
  }
  if (!ir::IsKnownDataType(type)) {
    problems->push_back(absl::StrCat(what, ": unknown element type ", static_cast<int>(type)));
    return;
  }
  for (int64_t d : t.dims()) {
    if (d < 0) {
      problems->push_back(
          absl::StrCat(what, ": dims ", DimsString(t.dims()), " include a negative size"));
      return;
    }
  }
  const std::optional<uint64_t> count = t.num_elements();
  if (!count.has_value()) {
    problems->push_back(absl::StrCat(what, ": dims ", DimsString(t.dims()), " overflow"));
    return;
  }
  if (t.storage() == ir::Tensor::Storage::kExternal) {
    CheckExternalData(t, what, problems);
    if (t.raw_data() != nullptr && type != ir::DataType::kString &&
        t.raw_size() != ir::RawByteSize(type, *count)) {
      problems->push_back(absl::StrCat(what, ": external data holds ", t.raw_size(), " bytes but ",
                                       ir::DataTypeName(type), DimsString(t.dims()), " needs ",
                                       ir::RawByteSize(type, *count)));
    }
    return;
  }
  if (!t.external_data().empty()) {
    problems->push_back(
        absl::StrCat(what, ": has external data entries but is not stored externally"));
  }
  if (type == ir::DataType::kString) {
    if (t.strings().size() != *count) {
      problems->push_back(absl::StrCat(what, ": holds ", t.strings().size(), " strings but dims ",
                                       DimsString(t.dims()), " need ", *count));
    }
    if (t.raw_size() != 0) {
      problems->push_back(absl::StrCat(what, ": string data must not be stored as raw bytes"));
    }
    return;
  }
  if (*count > 0 && t.storage() == ir::Tensor::Storage::kNone && t.raw_size() == 0) {
    problems->push_back(absl::StrCat(what, ": has ", *count, " elements but no data"));
    return;
  }
  const uint64_t expected = ir::RawByteSize(type, *count);
  if (t.raw_size() != expected) {
    problems->push_back(absl::StrCat(what, ": holds ", t.raw_size(), " bytes of data but ",
                                     ir::DataTypeName(type), DimsString(t.dims()), " needs ",
                                     expected));
  }
}

// ONNX's rules (checker.cc, check_sparse_tensor): values of rank 1 ([NNZ]); a dense shape of rank
// > 0 with positive dims; int64 indices, either [NNZ] linearized or [NNZ, rank], in range and in
// ascending (lexicographic) order.
void CheckSparseTensor(const ir::SparseTensor& s, const std::string& what,
                       std::vector<std::string>* problems) {
  const size_t before = problems->size();
  CheckTensor(s.values, absl::StrCat(what, " values"), problems);
  if (problems->size() != before) return;
  if (s.values.dims().size() != 1) {
    problems->push_back(
        absl::StrCat(what, ": values must have rank 1, not ", s.values.dims().size()));
    return;
  }
  const int64_t nnz = s.values.dims()[0];
  if (s.dims.empty()) {
    problems->push_back(absl::StrCat(what, ": the dense shape must have rank > 0"));
    return;
  }
  for (int64_t d : s.dims) {
    if (d <= 0) {
      problems->push_back(
          absl::StrCat(what, ": dense dims ", DimsString(s.dims), " must be positive"));
      return;
    }
  }
  const bool has_indices = s.indices.data_type() != ir::DataType::kUndefined;
  if (!has_indices) {
    if (nnz != 0) problems->push_back(absl::StrCat(what, ": has ", nnz, " values but no indices"));
    return;
  }
  CheckTensor(s.indices, absl::StrCat(what, " indices"), problems);
  if (problems->size() != before) return;
  if (s.indices.data_type() != ir::DataType::kInt64) {
    problems->push_back(absl::StrCat(what, ": indices must be int64, not ",
                                     ir::DataTypeName(s.indices.data_type())));
    return;
  }
  if (s.indices.storage() == ir::Tensor::Storage::kExternal && s.indices.raw_data() == nullptr)
    return;
  const std::vector<int64_t>& idims = s.indices.dims();
  const size_t rank = s.dims.size();
  if (idims.size() != 1 && idims.size() != 2) {
    problems->push_back(absl::StrCat(what, ": indices must have rank 1 or 2, not ", idims.size()));
    return;
  }
  if (idims[0] != nnz) {
    problems->push_back(
        absl::StrCat(what, ": indices list ", idims[0], " entries but there are ", nnz, " values"));
    return;
  }
  if (idims.size() == 2 && idims[1] != static_cast<int64_t>(rank)) {
    problems->push_back(absl::StrCat(what, ": indices' second dimension (", idims[1],
                                     ") must equal the dense rank (", rank, ")"));
    return;
  }
  const bool linear = idims.size() == 1;
  int64_t dense_size = 1;
  for (int64_t d : s.dims)
    dense_size = d != 0 && dense_size > INT64_MAX / d ? INT64_MAX : dense_size * d;
  int64_t previous = -1;
  for (int64_t i = 0; i < nnz; ++i) {
    int64_t index = 0;
    if (linear) {
      index = s.indices.at<int64_t>(i);
      if (index < 0 || index >= dense_size) {
        problems->push_back(absl::StrCat(what, ": index ", index, " at position ", i,
                                         " is out of range [0, ", dense_size, ")"));
        return;
      }
    } else {
      for (size_t j = 0; j < rank; ++j) {
        const int64_t v = s.indices.at<int64_t>(i * rank + j);
        if (v < 0 || v >= s.dims[j]) {
          problems->push_back(absl::StrCat(what, ": index [", i, ",", j, "] = ", v,
                                           " is out of range [0, ", s.dims[j], ")"));
          return;
        }
        index = index * s.dims[j] + v;
      }
    }
    if (index <= previous) {
      problems->push_back(
          absl::StrCat(what, ": indices are not in ascending order at position ", i));
      return;
    }
    previous = index;
  }
}

}  // namespace onnx_opt::schema::checker
