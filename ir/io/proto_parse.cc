#include "ir/io/proto_parse.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "ir/io/limits.h"

namespace onnx_opt::ir::io {
namespace {

absl::Status ParseError(const std::string& source, const std::string& what,
                        const std::string& why) {
  return absl::InvalidArgumentError(
      absl::StrCat("cannot parse '", source, "' as ", what, ": ", why));
}

// Bytes in memory that protobuf can parse: some, and under its 2 GiB limit.
absl::Status CheckParseableSize(uint64_t size, const std::string& source, const std::string& what) {
  if (size == 0) return ParseError(source, what, "there are no bytes");
  if (size > kMaxProtoBytes) {
    return ParseError(source, what,
                      absl::StrCat(size, " bytes; protobuf cannot parse 2 GiB or more"));
  }
  return absl::OkStatus();
}

// Reads runs of consecutive pieces of memory as one stream, without copying them.
class SpansInputStream final : public google::protobuf::io::ZeroCopyInputStream {
 public:
  SpansInputStream(const std::vector<std::string_view>& pieces, absl::Span<const PieceSpan> spans)
      : pieces_(pieces), spans_(spans) {
    if (!spans_.empty()) Enter(0);
  }

  bool Next(const void** data, int* size) override {
    while (span_ < spans_.size()) {
      if (left_in_span_ > 0 && index_ < pieces_.size()) {
        const std::string_view piece = pieces_[index_];
        if (offset_ < piece.size()) {
          const uint64_t n = std::min<uint64_t>(piece.size() - offset_, left_in_span_);
          *data = piece.data() + offset_;
          *size = static_cast<int>(n);
          offset_ += n;
          left_in_span_ -= n;
          count_ += static_cast<int64_t>(n);
          return true;
        }
        ++index_;
        offset_ = 0;
        continue;
      }
      if (++span_ < spans_.size()) Enter(span_);
    }
    return false;
  }
  // Only into the chunk Next returned last, as the interface allows.
  void BackUp(int count) override {
    offset_ -= static_cast<size_t>(count);
    left_in_span_ += static_cast<uint64_t>(count);
    count_ -= count;
  }
  bool Skip(int count) override {
    const void* data;
    int size;
    while (count > 0 && Next(&data, &size)) {
      if (size > count) {
        BackUp(size - count);
        return true;
      }
      count -= size;
    }
    return count == 0;
  }
  int64_t ByteCount() const override { return count_; }

 private:
  void Enter(size_t span) {
    index_ = spans_[span].index;
    offset_ = spans_[span].offset;
    left_in_span_ = spans_[span].size;
  }

  const std::vector<std::string_view>& pieces_;
  absl::Span<const PieceSpan> spans_;
  size_t span_ = 0;
  size_t index_ = 0;
  size_t offset_ = 0;  // within pieces_[index_]
  uint64_t left_in_span_ = 0;
  int64_t count_ = 0;
};

absl::Status ParseStream(google::protobuf::io::ZeroCopyInputStream* stream, int depth,
                         const std::string& source, const std::string& what,
                         google::protobuf::Message* message) {
  google::protobuf::io::CodedInputStream coded(stream);
  coded.SetTotalBytesLimit(static_cast<int>(kMaxProtoBytes));
  coded.SetRecursionLimit(kProtoRecursionLimit - depth);
  // Partial: ONNX messages have no required fields, and missing ones are checked by the importer.
  if (!message->ParsePartialFromCodedStream(&coded) || !coded.ConsumedEntireMessage()) {
    return ParseError(source, what,
                      absl::StrCat("the data is truncated or corrupt (or nests deeper than ",
                                   kProtoRecursionLimit, " message levels)"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status OneLine(const absl::Status& status) {
  if (status.ok()) return status;
  const std::string_view msg(status.message().data(), status.message().size());
  bool clean = true;
  for (unsigned char c : msg) clean &= c >= 0x20 && c < 0x7f;
  if (clean) return status;
  std::string out;
  for (unsigned char c : msg) {
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return absl::Status(status.code(), out);
}

absl::Status ParseProtoFile(const std::string& path, const std::string& what,
                            google::protobuf::Message* message) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    const std::string msg = absl::StrCat("cannot open '", path, "': ", std::strerror(err));
    return err == ENOENT ? absl::NotFoundError(msg) : absl::PermissionDeniedError(msg);
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return ParseError(path, what, "it is not a regular file");
  }
  if (st.st_size == 0) {
    ::close(fd);
    return ParseError(path, what, "the file is empty");
  }
  if (static_cast<uint64_t>(st.st_size) > kMaxProtoBytes) {
    ::close(fd);
    return ParseError(path, what,
                      absl::StrCat("the file has ", st.st_size,
                                   " bytes; protobuf cannot parse 2 GiB or more (large tensors "
                                   "belong in external data)"));
  }
  google::protobuf::io::FileInputStream stream(fd);
  stream.SetCloseOnDelete(true);
  absl::Status status = ParseStream(&stream, 0, path, what, message);
  if (status.ok() && stream.GetErrno() != 0) {
    return ParseError(path, what, absl::StrCat("read error: ", std::strerror(stream.GetErrno())));
  }
  return status;
}

absl::Status ParseProtoBytes(std::string_view bytes, const std::string& source,
                             const std::string& what, google::protobuf::Message* message) {
  if (absl::Status s = CheckParseableSize(bytes.size(), source, what); !s.ok()) return s;
  google::protobuf::io::ArrayInputStream stream(bytes.data(), static_cast<int>(bytes.size()));
  return ParseStream(&stream, 0, source, what, message);
}

absl::Status ParseProtoPieces(const std::vector<std::string_view>& pieces, uint64_t size,
                              const std::string& source, const std::string& what,
                              google::protobuf::Message* message) {
  if (absl::Status s = CheckParseableSize(size, source, what); !s.ok()) return s;
  return ParseProtoSpans(pieces, {PieceSpan{0, 0, size}}, 0, source, what, message);
}

absl::Status ParseProtoSpans(const std::vector<std::string_view>& pieces,
                             absl::Span<const PieceSpan> spans, int depth,
                             const std::string& source, const std::string& what,
                             google::protobuf::Message* message) {
  SpansInputStream stream(pieces, spans);
  return ParseStream(&stream, depth, source, what, message);
}

}  // namespace onnx_opt::ir::io
