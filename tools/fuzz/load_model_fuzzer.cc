// The binary model loader on arbitrary bytes. What loads must also serialize and load again (the
// loader accepts only what the writer can write back). Loading from bytes goes through the payload
// splice (payload_splice.h) as files do; cutting raw_data out and putting it back must also not
// change the message, and the spliced load must give the model (or the refusal) that parsing the
// bytes whole gives.
#include <cstdlib>
#include <iostream>
#include <string_view>

#include "google/protobuf/util/field_comparator.h"
#include "google/protobuf/util/message_differencer.h"
#include "ir/io/model_io.h"
#include "ir/io/payload_splice.h"
#include "ir/io/proto_import.h"
#include "ir/io/proto_parse.h"
#include "ir/verifier.h"
#include "proto/onnx.pb.h"
#include "tools/fuzz/fuzz_target.h"

namespace {

void CheckSpliceRoundTrip(std::string_view bytes) {
  using namespace onnx_opt::ir::io;
  std::vector<std::string_view> payloads;
  std::optional<std::string> stripped = StripPayloads(bytes, 1, &payloads);
  if (!stripped.has_value()) return;
  absl::StatusOr<SplicedModel> spliced = SplicePayloads(*stripped, payloads);
  if (!spliced.ok()) {
    std::cerr << "fuzz: stripped bytes did not splice back: " << spliced.status() << "\n";
    std::abort();
  }
  onnx::ModelProto original, round_trip;
  if (!original.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return;
  // NaN equals NaN here: MessageDifferencer::Equals calls a float field holding NaN different from
  // itself, so any model with a NaN float (an attribute's floats, a tensor's float_data) failed
  // this check though the round trip was byte for byte the same
  // (regressions/load_model_fuzzer/nan_float_beside_raw_data).
  google::protobuf::util::DefaultFieldComparator nan_equal;
  nan_equal.set_treat_nan_as_equal(true);
  google::protobuf::util::MessageDifferencer differ;
  differ.set_field_comparator(&nan_equal);
  if (!round_trip.ParseFromString(spliced->Concatenate()) ||
      !differ.Compare(original, round_trip)) {
    std::cerr << "fuzz: cutting raw_data out and back in changed the message\n";
    std::abort();
  }
}

// The same bytes loaded without the splice: protobuf parses them whole (raw_data copied into its
// strings) and the importer reads the tensors from there.
absl::StatusOr<std::unique_ptr<onnx_opt::ir::Model>> LoadPlain(std::string_view bytes) {
  using namespace onnx_opt::ir::io;
  onnx::ModelProto proto;
  if (absl::Status s = ParseProtoBytes(bytes, "<memory>", "an ONNX model", &proto); !s.ok())
    return s;
  return ImportModel(proto);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace onnx_opt;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  CheckSpliceRoundTrip(bytes);
  absl::StatusOr<std::unique_ptr<ir::Model>> model = ir::io::LoadModelFromString(bytes);
  absl::StatusOr<std::unique_ptr<ir::Model>> plain = LoadPlain(bytes);
  if (model.ok() != plain.ok()) {
    std::cerr << "fuzz: the spliced load says " << model.status() << " but the plain one says "
              << plain.status() << "\n";
    std::abort();
  }
  if (!model.ok()) return 0;
  {
    absl::StatusOr<std::string> spliced_bytes = ir::io::SerializeModel(**model);
    absl::StatusOr<std::string> plain_bytes = ir::io::SerializeModel(**plain);
    if (spliced_bytes.ok() != plain_bytes.ok() ||
        (spliced_bytes.ok() && *spliced_bytes != *plain_bytes)) {
      std::cerr << "fuzz: the spliced and the plain load give different models\n";
      std::abort();
    }
  }
  if (absl::Status s = ir::Verify(**model); !s.ok())
    return 0;  // loaded but broken: the checker's job
  absl::StatusOr<std::string> written = ir::io::SerializeModel(**model);
  if (!written.ok()) return 0;
  absl::StatusOr<std::unique_ptr<ir::Model>> again = ir::io::LoadModelFromString(*written);
  if (!again.ok()) {
    std::cerr << "fuzz: a loaded model did not load again after saving: " << again.status() << "\n";
    std::abort();
  }
  return 0;
}
