#ifndef ONNX_OPT_SCHEMA_DEFS_TYPE_LISTS_H_
#define ONNX_OPT_SCHEMA_DEFS_TYPE_LISTS_H_

// Named lists of allowed types for the operator tables. Order is ONNX's and matters: the tables are
// compared with ONNX's schemas list by list. Combine lists with Join() (schema/defs/dsl.h).

#include <string_view>

namespace onnx_opt::schema::defs {

// float16, float, double
inline constexpr std::string_view kFloatTensors[] = {
    "tensor(float16)",
    "tensor(float)",
    "tensor(double)",
};

// kFloatTensors, then bfloat16
inline constexpr std::string_view kFloatTensorsAndBf16[] = {
    "tensor(float16)",
    "tensor(float)",
    "tensor(double)",
    "tensor(bfloat16)",
};

// bfloat16 first, then kFloatTensors
inline constexpr std::string_view kFloatTensorsIr4[] = {
    "tensor(bfloat16)",
    "tensor(float16)",
    "tensor(float)",
    "tensor(double)",
};

// kFloatTensorsIr4 and the float8 types
inline constexpr std::string_view kFloatTensorsIr9[] = {
    "tensor(bfloat16)",   "tensor(float16)",        "tensor(float)",
    "tensor(double)",     "tensor(float8e4m3fn)",   "tensor(float8e4m3fnuz)",
    "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
};

// all 8- to 64-bit integers
inline constexpr std::string_view kIntegerTensors[] = {
    "tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
    "tensor(int8)",  "tensor(int16)",  "tensor(int32)",  "tensor(int64)",
};

// integers and kFloatTensors
inline constexpr std::string_view kNumericTensors[] = {
    "tensor(uint8)",   "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
    "tensor(int8)",    "tensor(int16)",  "tensor(int32)",  "tensor(int64)",
    "tensor(float16)", "tensor(float)",  "tensor(double)",
};

// kNumericTensors and bfloat16
inline constexpr std::string_view kNumericTensorsIr4[] = {
    "tensor(uint8)",   "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
    "tensor(int8)",    "tensor(int16)",  "tensor(int32)",  "tensor(int64)",
    "tensor(float16)", "tensor(float)",  "tensor(double)", "tensor(bfloat16)",
};

// integers, bfloat16, kFloatTensors and bool
inline constexpr std::string_view kNumericAndBoolTensorsIr4[] = {
    "tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",   "tensor(int8)",
    "tensor(int16)", "tensor(int32)",  "tensor(int64)",  "tensor(bfloat16)", "tensor(float16)",
    "tensor(float)", "tensor(double)", "tensor(bool)",
};

// 32/64-bit integers and kFloatTensors
inline constexpr std::string_view kMathTensors[] = {
    "tensor(uint32)",  "tensor(uint64)", "tensor(int32)",  "tensor(int64)",
    "tensor(float16)", "tensor(float)",  "tensor(double)",
};

// kMathTensors and bfloat16
inline constexpr std::string_view kMathTensorsIr4[] = {
    "tensor(uint32)",  "tensor(uint64)", "tensor(int32)",  "tensor(int64)",
    "tensor(float16)", "tensor(float)",  "tensor(double)", "tensor(bfloat16)",
};

// the four float8 types
inline constexpr std::string_view kFloat8Tensors[] = {
    "tensor(float8e4m3fn)",
    "tensor(float8e4m3fnuz)",
    "tensor(float8e5m2)",
    "tensor(float8e5m2fnuz)",
};

// every tensor type of IR 3
inline constexpr std::string_view kAllTensors[] = {
    "tensor(uint8)",  "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",    "tensor(int8)",
    "tensor(int16)",  "tensor(int32)",  "tensor(int64)",  "tensor(float16)",   "tensor(float)",
    "tensor(double)", "tensor(string)", "tensor(bool)",   "tensor(complex64)", "tensor(complex128)",
};

// every tensor type of IR 4 (adds bfloat16)
inline constexpr std::string_view kAllTensorsIr4[] = {
    "tensor(uint8)",    "tensor(uint16)",  "tensor(uint32)",    "tensor(uint64)",
    "tensor(int8)",     "tensor(int16)",   "tensor(int32)",     "tensor(int64)",
    "tensor(bfloat16)", "tensor(float16)", "tensor(float)",     "tensor(double)",
    "tensor(string)",   "tensor(bool)",    "tensor(complex64)", "tensor(complex128)",
};

// every tensor type of IR 9 (adds float8)
inline constexpr std::string_view kAllTensorsIr9[] = {
    "tensor(uint8)",      "tensor(uint16)",         "tensor(uint32)",
    "tensor(uint64)",     "tensor(int8)",           "tensor(int16)",
    "tensor(int32)",      "tensor(int64)",          "tensor(bfloat16)",
    "tensor(float16)",    "tensor(float)",          "tensor(double)",
    "tensor(string)",     "tensor(bool)",           "tensor(complex64)",
    "tensor(complex128)", "tensor(float8e4m3fn)",   "tensor(float8e4m3fnuz)",
    "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
};

// every tensor type of IR 10 (adds uint4, int4)
inline constexpr std::string_view kAllTensorsIr10[] = {
    "tensor(uint8)",      "tensor(uint16)",         "tensor(uint32)",
    "tensor(uint64)",     "tensor(int8)",           "tensor(int16)",
    "tensor(int32)",      "tensor(int64)",          "tensor(bfloat16)",
    "tensor(float16)",    "tensor(float)",          "tensor(double)",
    "tensor(string)",     "tensor(bool)",           "tensor(complex64)",
    "tensor(complex128)", "tensor(float8e4m3fn)",   "tensor(float8e4m3fnuz)",
    "tensor(float8e5m2)", "tensor(float8e5m2fnuz)", "tensor(uint4)",
    "tensor(int4)",
};

// every tensor type of IR 11 (adds float4e2m1)
inline constexpr std::string_view kAllTensorsIr11[] = {
    "tensor(uint8)",      "tensor(uint16)",         "tensor(uint32)",
    "tensor(uint64)",     "tensor(int8)",           "tensor(int16)",
    "tensor(int32)",      "tensor(int64)",          "tensor(bfloat16)",
    "tensor(float16)",    "tensor(float)",          "tensor(double)",
    "tensor(string)",     "tensor(bool)",           "tensor(complex64)",
    "tensor(complex128)", "tensor(float8e4m3fn)",   "tensor(float8e4m3fnuz)",
    "tensor(float8e5m2)", "tensor(float8e5m2fnuz)", "tensor(uint4)",
    "tensor(int4)",       "tensor(float4e2m1)",
};

// every tensor type of IR 12 (adds float8e8m0)
inline constexpr std::string_view kAllTensorsIr12[] = {
    "tensor(uint8)",      "tensor(uint16)",         "tensor(uint32)",
    "tensor(uint64)",     "tensor(int8)",           "tensor(int16)",
    "tensor(int32)",      "tensor(int64)",          "tensor(bfloat16)",
    "tensor(float16)",    "tensor(float)",          "tensor(double)",
    "tensor(string)",     "tensor(bool)",           "tensor(complex64)",
    "tensor(complex128)", "tensor(float8e4m3fn)",   "tensor(float8e4m3fnuz)",
    "tensor(float8e5m2)", "tensor(float8e5m2fnuz)", "tensor(uint4)",
    "tensor(int4)",       "tensor(float4e2m1)",     "tensor(float8e8m0)",
};

// every tensor type of IR 13 (adds uint2, int2)
inline constexpr std::string_view kAllTensorsIr13[] = {
    "tensor(uint8)",      "tensor(uint16)",         "tensor(uint32)",
    "tensor(uint64)",     "tensor(int8)",           "tensor(int16)",
    "tensor(int32)",      "tensor(int64)",          "tensor(bfloat16)",
    "tensor(float16)",    "tensor(float)",          "tensor(double)",
    "tensor(string)",     "tensor(bool)",           "tensor(complex64)",
    "tensor(complex128)", "tensor(float8e4m3fn)",   "tensor(float8e4m3fnuz)",
    "tensor(float8e5m2)", "tensor(float8e5m2fnuz)", "tensor(uint4)",
    "tensor(int4)",       "tensor(float4e2m1)",     "tensor(float8e8m0)",
    "tensor(uint2)",      "tensor(int2)",
};

// kAllTensorsIr10 without complex
inline constexpr std::string_view kNonComplexTensorsIr10[] = {
    "tensor(uint8)",          "tensor(uint16)",     "tensor(uint32)",
    "tensor(uint64)",         "tensor(int8)",       "tensor(int16)",
    "tensor(int32)",          "tensor(int64)",      "tensor(bfloat16)",
    "tensor(float16)",        "tensor(float)",      "tensor(double)",
    "tensor(string)",         "tensor(bool)",       "tensor(float8e4m3fn)",
    "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
    "tensor(uint4)",          "tensor(int4)",
};

// kAllTensorsIr11 without complex
inline constexpr std::string_view kNonComplexTensorsIr11[] = {
    "tensor(uint8)",          "tensor(uint16)",     "tensor(uint32)",
    "tensor(uint64)",         "tensor(int8)",       "tensor(int16)",
    "tensor(int32)",          "tensor(int64)",      "tensor(bfloat16)",
    "tensor(float16)",        "tensor(float)",      "tensor(double)",
    "tensor(string)",         "tensor(bool)",       "tensor(float8e4m3fn)",
    "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
    "tensor(uint4)",          "tensor(int4)",       "tensor(float4e2m1)",
};

// kAllTensorsIr12 without complex
inline constexpr std::string_view kNonComplexTensorsIr12[] = {
    "tensor(uint8)",          "tensor(uint16)",     "tensor(uint32)",
    "tensor(uint64)",         "tensor(int8)",       "tensor(int16)",
    "tensor(int32)",          "tensor(int64)",      "tensor(bfloat16)",
    "tensor(float16)",        "tensor(float)",      "tensor(double)",
    "tensor(string)",         "tensor(bool)",       "tensor(float8e4m3fn)",
    "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
    "tensor(uint4)",          "tensor(int4)",       "tensor(float4e2m1)",
    "tensor(float8e8m0)",
};

// kAllTensorsIr13 without complex
inline constexpr std::string_view kNonComplexTensorsIr13[] = {
    "tensor(uint8)",          "tensor(uint16)",     "tensor(uint32)",
    "tensor(uint64)",         "tensor(int8)",       "tensor(int16)",
    "tensor(int32)",          "tensor(int64)",      "tensor(bfloat16)",
    "tensor(float16)",        "tensor(float)",      "tensor(double)",
    "tensor(string)",         "tensor(bool)",       "tensor(float8e4m3fn)",
    "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
    "tensor(uint4)",          "tensor(int4)",       "tensor(float4e2m1)",
    "tensor(float8e8m0)",     "tensor(uint2)",      "tensor(int2)",
};

// kAllTensorsIr13 without string
inline constexpr std::string_view kNonStringTensorsIr13[] = {
    "tensor(uint8)",          "tensor(uint16)",         "tensor(uint32)",
    "tensor(uint64)",         "tensor(int8)",           "tensor(int16)",
    "tensor(int32)",          "tensor(int64)",          "tensor(bfloat16)",
    "tensor(float16)",        "tensor(float)",          "tensor(double)",
    "tensor(bool)",           "tensor(complex64)",      "tensor(complex128)",
    "tensor(float8e4m3fn)",   "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
    "tensor(float8e5m2fnuz)", "tensor(uint4)",          "tensor(int4)",
    "tensor(float4e2m1)",     "tensor(float8e8m0)",     "tensor(uint2)",
    "tensor(int2)",
};

// Cast-1's order
inline constexpr std::string_view kCastTensorsV1[] = {
    "tensor(float16)", "tensor(float)",  "tensor(double)", "tensor(int8)",
    "tensor(int16)",   "tensor(int32)",  "tensor(int64)",  "tensor(uint8)",
    "tensor(uint16)",  "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
};

// Cast-9: kCastTensorsV1 and string
inline constexpr std::string_view kCastTensorsV9[] = {
    "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",   "tensor(int16)",
    "tensor(int32)",   "tensor(int64)", "tensor(uint8)",  "tensor(uint16)", "tensor(uint32)",
    "tensor(uint64)",  "tensor(bool)",  "tensor(string)",
};

// Cast-13: kCastTensorsV9 and bfloat16
inline constexpr std::string_view kCastTensorsV13[] = {
    "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",     "tensor(int16)",
    "tensor(int32)",   "tensor(int64)", "tensor(uint8)",  "tensor(uint16)",   "tensor(uint32)",
    "tensor(uint64)",  "tensor(bool)",  "tensor(string)", "tensor(bfloat16)",
};

// Cast-19: kCastTensorsV13 and float8
inline constexpr std::string_view kCastTensorsV19[] = {
    "tensor(float16)",        "tensor(float)",      "tensor(double)",
    "tensor(int8)",           "tensor(int16)",      "tensor(int32)",
    "tensor(int64)",          "tensor(uint8)",      "tensor(uint16)",
    "tensor(uint32)",         "tensor(uint64)",     "tensor(bool)",
    "tensor(string)",         "tensor(bfloat16)",   "tensor(float8e4m3fn)",
    "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
};

// Cast-21: kCastTensorsV19 and uint4, int4
inline constexpr std::string_view kCastTensorsV21[] = {
    "tensor(float16)",        "tensor(float)",      "tensor(double)",
    "tensor(int8)",           "tensor(int16)",      "tensor(int32)",
    "tensor(int64)",          "tensor(uint8)",      "tensor(uint16)",
    "tensor(uint32)",         "tensor(uint64)",     "tensor(bool)",
    "tensor(string)",         "tensor(bfloat16)",   "tensor(float8e4m3fn)",
    "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
    "tensor(uint4)",          "tensor(int4)",
};

// seq() of kAllTensors
inline constexpr std::string_view kAllTensorSequences[] = {
    "seq(tensor(uint8))",  "seq(tensor(uint16))",    "seq(tensor(uint32))",
    "seq(tensor(uint64))", "seq(tensor(int8))",      "seq(tensor(int16))",
    "seq(tensor(int32))",  "seq(tensor(int64))",     "seq(tensor(float16))",
    "seq(tensor(float))",  "seq(tensor(double))",    "seq(tensor(string))",
    "seq(tensor(bool))",   "seq(tensor(complex64))", "seq(tensor(complex128))",
};

// optional() of kAllTensors
inline constexpr std::string_view kAllOptionalTensors[] = {
    "optional(tensor(uint8))",  "optional(tensor(uint16))",    "optional(tensor(uint32))",
    "optional(tensor(uint64))", "optional(tensor(int8))",      "optional(tensor(int16))",
    "optional(tensor(int32))",  "optional(tensor(int64))",     "optional(tensor(float16))",
    "optional(tensor(float))",  "optional(tensor(double))",    "optional(tensor(string))",
    "optional(tensor(bool))",   "optional(tensor(complex64))", "optional(tensor(complex128))",
};

// optional(seq()) of kAllTensors
inline constexpr std::string_view kAllOptionalTensorSequences[] = {
    "optional(seq(tensor(uint8)))",      "optional(seq(tensor(uint16)))",
    "optional(seq(tensor(uint32)))",     "optional(seq(tensor(uint64)))",
    "optional(seq(tensor(int8)))",       "optional(seq(tensor(int16)))",
    "optional(seq(tensor(int32)))",      "optional(seq(tensor(int64)))",
    "optional(seq(tensor(float16)))",    "optional(seq(tensor(float)))",
    "optional(seq(tensor(double)))",     "optional(seq(tensor(string)))",
    "optional(seq(tensor(bool)))",       "optional(seq(tensor(complex64)))",
    "optional(seq(tensor(complex128)))",
};

// seq() of kAllTensorsIr4
inline constexpr std::string_view kAllTensorSequencesIr4[] = {
    "seq(tensor(uint8))",      "seq(tensor(uint16))", "seq(tensor(uint32))",
    "seq(tensor(uint64))",     "seq(tensor(int8))",   "seq(tensor(int16))",
    "seq(tensor(int32))",      "seq(tensor(int64))",  "seq(tensor(bfloat16))",
    "seq(tensor(float16))",    "seq(tensor(float))",  "seq(tensor(double))",
    "seq(tensor(string))",     "seq(tensor(bool))",   "seq(tensor(complex64))",
    "seq(tensor(complex128))",
};

// optional() of kAllTensorsIr4
inline constexpr std::string_view kAllOptionalTensorsIr4[] = {
    "optional(tensor(uint8))",      "optional(tensor(uint16))", "optional(tensor(uint32))",
    "optional(tensor(uint64))",     "optional(tensor(int8))",   "optional(tensor(int16))",
    "optional(tensor(int32))",      "optional(tensor(int64))",  "optional(tensor(bfloat16))",
    "optional(tensor(float16))",    "optional(tensor(float))",  "optional(tensor(double))",
    "optional(tensor(string))",     "optional(tensor(bool))",   "optional(tensor(complex64))",
    "optional(tensor(complex128))",
};

// optional(seq()) of kAllTensorsIr4
inline constexpr std::string_view kAllOptionalTensorSequencesIr4[] = {
    "optional(seq(tensor(uint8)))",     "optional(seq(tensor(uint16)))",
    "optional(seq(tensor(uint32)))",    "optional(seq(tensor(uint64)))",
    "optional(seq(tensor(int8)))",      "optional(seq(tensor(int16)))",
    "optional(seq(tensor(int32)))",     "optional(seq(tensor(int64)))",
    "optional(seq(tensor(bfloat16)))",  "optional(seq(tensor(float16)))",
    "optional(seq(tensor(float)))",     "optional(seq(tensor(double)))",
    "optional(seq(tensor(string)))",    "optional(seq(tensor(bool)))",
    "optional(seq(tensor(complex64)))", "optional(seq(tensor(complex128)))",
};

// seq() of kAllTensorsIr9
inline constexpr std::string_view kAllTensorSequencesIr9[] = {
    "seq(tensor(uint8))",      "seq(tensor(uint16))",         "seq(tensor(uint32))",
    "seq(tensor(uint64))",     "seq(tensor(int8))",           "seq(tensor(int16))",
    "seq(tensor(int32))",      "seq(tensor(int64))",          "seq(tensor(bfloat16))",
    "seq(tensor(float16))",    "seq(tensor(float))",          "seq(tensor(double))",
    "seq(tensor(string))",     "seq(tensor(bool))",           "seq(tensor(complex64))",
    "seq(tensor(complex128))", "seq(tensor(float8e4m3fn))",   "seq(tensor(float8e4m3fnuz))",
    "seq(tensor(float8e5m2))", "seq(tensor(float8e5m2fnuz))",
};

// optional() of kAllTensorsIr9
inline constexpr std::string_view kAllOptionalTensorsIr9[] = {
    "optional(tensor(uint8))",        "optional(tensor(uint16))",
    "optional(tensor(uint32))",       "optional(tensor(uint64))",
    "optional(tensor(int8))",         "optional(tensor(int16))",
    "optional(tensor(int32))",        "optional(tensor(int64))",
    "optional(tensor(bfloat16))",     "optional(tensor(float16))",
    "optional(tensor(float))",        "optional(tensor(double))",
    "optional(tensor(string))",       "optional(tensor(bool))",
    "optional(tensor(complex64))",    "optional(tensor(complex128))",
    "optional(tensor(float8e4m3fn))", "optional(tensor(float8e4m3fnuz))",
    "optional(tensor(float8e5m2))",   "optional(tensor(float8e5m2fnuz))",
};

// seq() of kAllTensorsIr10
inline constexpr std::string_view kAllTensorSequencesIr10[] = {
    "seq(tensor(uint8))",      "seq(tensor(uint16))",         "seq(tensor(uint32))",
    "seq(tensor(uint64))",     "seq(tensor(int8))",           "seq(tensor(int16))",
    "seq(tensor(int32))",      "seq(tensor(int64))",          "seq(tensor(bfloat16))",
    "seq(tensor(float16))",    "seq(tensor(float))",          "seq(tensor(double))",
    "seq(tensor(string))",     "seq(tensor(bool))",           "seq(tensor(complex64))",
    "seq(tensor(complex128))", "seq(tensor(float8e4m3fn))",   "seq(tensor(float8e4m3fnuz))",
    "seq(tensor(float8e5m2))", "seq(tensor(float8e5m2fnuz))", "seq(tensor(uint4))",
    "seq(tensor(int4))",
};

// optional() of kAllTensorsIr10
inline constexpr std::string_view kAllOptionalTensorsIr10[] = {
    "optional(tensor(uint8))",        "optional(tensor(uint16))",
    "optional(tensor(uint32))",       "optional(tensor(uint64))",
    "optional(tensor(int8))",         "optional(tensor(int16))",
    "optional(tensor(int32))",        "optional(tensor(int64))",
    "optional(tensor(bfloat16))",     "optional(tensor(float16))",
    "optional(tensor(float))",        "optional(tensor(double))",
    "optional(tensor(string))",       "optional(tensor(bool))",
    "optional(tensor(complex64))",    "optional(tensor(complex128))",
    "optional(tensor(float8e4m3fn))", "optional(tensor(float8e4m3fnuz))",
    "optional(tensor(float8e5m2))",   "optional(tensor(float8e5m2fnuz))",
    "optional(tensor(uint4))",        "optional(tensor(int4))",
};

// seq() of kAllTensorsIr11
inline constexpr std::string_view kAllTensorSequencesIr11[] = {
    "seq(tensor(uint8))",      "seq(tensor(uint16))",         "seq(tensor(uint32))",
    "seq(tensor(uint64))",     "seq(tensor(int8))",           "seq(tensor(int16))",
    "seq(tensor(int32))",      "seq(tensor(int64))",          "seq(tensor(bfloat16))",
    "seq(tensor(float16))",    "seq(tensor(float))",          "seq(tensor(double))",
    "seq(tensor(string))",     "seq(tensor(bool))",           "seq(tensor(complex64))",
    "seq(tensor(complex128))", "seq(tensor(float8e4m3fn))",   "seq(tensor(float8e4m3fnuz))",
    "seq(tensor(float8e5m2))", "seq(tensor(float8e5m2fnuz))", "seq(tensor(uint4))",
    "seq(tensor(int4))",       "seq(tensor(float4e2m1))",
};

// optional() of kAllTensorsIr11
inline constexpr std::string_view kAllOptionalTensorsIr11[] = {
    "optional(tensor(uint8))",        "optional(tensor(uint16))",
    "optional(tensor(uint32))",       "optional(tensor(uint64))",
    "optional(tensor(int8))",         "optional(tensor(int16))",
    "optional(tensor(int32))",        "optional(tensor(int64))",
    "optional(tensor(bfloat16))",     "optional(tensor(float16))",
    "optional(tensor(float))",        "optional(tensor(double))",
    "optional(tensor(string))",       "optional(tensor(bool))",
    "optional(tensor(complex64))",    "optional(tensor(complex128))",
    "optional(tensor(float8e4m3fn))", "optional(tensor(float8e4m3fnuz))",
    "optional(tensor(float8e5m2))",   "optional(tensor(float8e5m2fnuz))",
    "optional(tensor(uint4))",        "optional(tensor(int4))",
    "optional(tensor(float4e2m1))",
};

// seq() of kAllTensorsIr12
inline constexpr std::string_view kAllTensorSequencesIr12[] = {
    "seq(tensor(uint8))",      "seq(tensor(uint16))",         "seq(tensor(uint32))",
    "seq(tensor(uint64))",     "seq(tensor(int8))",           "seq(tensor(int16))",
    "seq(tensor(int32))",      "seq(tensor(int64))",          "seq(tensor(bfloat16))",
    "seq(tensor(float16))",    "seq(tensor(float))",          "seq(tensor(double))",
    "seq(tensor(string))",     "seq(tensor(bool))",           "seq(tensor(complex64))",
    "seq(tensor(complex128))", "seq(tensor(float8e4m3fn))",   "seq(tensor(float8e4m3fnuz))",
    "seq(tensor(float8e5m2))", "seq(tensor(float8e5m2fnuz))", "seq(tensor(uint4))",
    "seq(tensor(int4))",       "seq(tensor(float4e2m1))",     "seq(tensor(float8e8m0))",
};

// optional() of kAllTensorsIr12
inline constexpr std::string_view kAllOptionalTensorsIr12[] = {
    "optional(tensor(uint8))",        "optional(tensor(uint16))",
    "optional(tensor(uint32))",       "optional(tensor(uint64))",
    "optional(tensor(int8))",         "optional(tensor(int16))",
    "optional(tensor(int32))",        "optional(tensor(int64))",
    "optional(tensor(bfloat16))",     "optional(tensor(float16))",
    "optional(tensor(float))",        "optional(tensor(double))",
    "optional(tensor(string))",       "optional(tensor(bool))",
    "optional(tensor(complex64))",    "optional(tensor(complex128))",
    "optional(tensor(float8e4m3fn))", "optional(tensor(float8e4m3fnuz))",
    "optional(tensor(float8e5m2))",   "optional(tensor(float8e5m2fnuz))",
    "optional(tensor(uint4))",        "optional(tensor(int4))",
    "optional(tensor(float4e2m1))",   "optional(tensor(float8e8m0))",
};

// seq() of kAllTensorsIr13
inline constexpr std::string_view kAllTensorSequencesIr13[] = {
    "seq(tensor(uint8))",      "seq(tensor(uint16))",         "seq(tensor(uint32))",
    "seq(tensor(uint64))",     "seq(tensor(int8))",           "seq(tensor(int16))",
    "seq(tensor(int32))",      "seq(tensor(int64))",          "seq(tensor(bfloat16))",
    "seq(tensor(float16))",    "seq(tensor(float))",          "seq(tensor(double))",
    "seq(tensor(string))",     "seq(tensor(bool))",           "seq(tensor(complex64))",
    "seq(tensor(complex128))", "seq(tensor(float8e4m3fn))",   "seq(tensor(float8e4m3fnuz))",
    "seq(tensor(float8e5m2))", "seq(tensor(float8e5m2fnuz))", "seq(tensor(uint4))",
    "seq(tensor(int4))",       "seq(tensor(float4e2m1))",     "seq(tensor(float8e8m0))",
    "seq(tensor(uint2))",      "seq(tensor(int2))",
};

// optional() of kAllTensorsIr13
inline constexpr std::string_view kAllOptionalTensorsIr13[] = {
    "optional(tensor(uint8))",        "optional(tensor(uint16))",
    "optional(tensor(uint32))",       "optional(tensor(uint64))",
    "optional(tensor(int8))",         "optional(tensor(int16))",
    "optional(tensor(int32))",        "optional(tensor(int64))",
    "optional(tensor(bfloat16))",     "optional(tensor(float16))",
    "optional(tensor(float))",        "optional(tensor(double))",
    "optional(tensor(string))",       "optional(tensor(bool))",
    "optional(tensor(complex64))",    "optional(tensor(complex128))",
    "optional(tensor(float8e4m3fn))", "optional(tensor(float8e4m3fnuz))",
    "optional(tensor(float8e5m2))",   "optional(tensor(float8e5m2fnuz))",
    "optional(tensor(uint4))",        "optional(tensor(int4))",
    "optional(tensor(float4e2m1))",   "optional(tensor(float8e8m0))",
    "optional(tensor(uint2))",        "optional(tensor(int2))",
};

}  // namespace onnx_opt::schema::defs

#endif  // ONNX_OPT_SCHEMA_DEFS_TYPE_LISTS_H_
