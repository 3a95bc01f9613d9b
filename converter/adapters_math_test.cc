#include "converter/testing/test_util.h"
#include "gtest/gtest.h"

namespace onnx_opt::converter::testing {
namespace {

TEST(MathAdapters, AddLegacyBroadcastWithAxisUpgradesWithUnsqueeze) {
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,3,4] A, float[3] B) => (float[2,3,4] C) { C = Add<broadcast = 1, axis = 1>(A, B) })",
                   7, R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[2,3,4] A, float[3] B) => (float[2,3,4] C) {
      B_aligned = Unsqueeze<axes = [1]>(B)
      C = Add(A, B_aligned)
    })");
}

TEST(MathAdapters, AddSuffixBroadcastUpgradesToPlainAdd) {
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,3,4] A, float[3,4] B) => (float[2,3,4] C) { C = Add<broadcast = 1>(A, B) })",
                   7, R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[2,3,4] A, float[3,4] B) => (float[2,3,4] C) { C = Add(A, B) })");
}

TEST(MathAdapters, NumpyBroadcastDowngradesToLegacyWhenExpressible) {
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[2,3,4] A, float[4] B) => (float[2,3,4] C) { C = Sub(A, B) })",
                   6, R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,3,4] A, float[4] B) => (float[2,3,4] C) { C = Sub<broadcast = 1>(A, B) })");
  // A broadcast from the left operand: commutative Mul swaps its operands.
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[4] A, float[2,4] B) => (float[2,4] C) { C = Mul(A, B) })",
                   6, R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[4] A, float[2,4] B) => (float[2,4] C) { C = Mul<broadcast = 1>(B, A) })");
  // Greater becomes Less with swapped operands.
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[4] A, float[2,4] B) => (bool[2,4] C) { C = Greater(A, B) })",
                   6, R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[4] A, float[2,4] B) => (bool[2,4] C) { C = Less<broadcast = 1>(B, A) })");
}

TEST(MathAdapters, AddLegacyBroadcastWithNegativeAxisOrOneElement) {
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,3,4,5] A, float[3] B) => (float[2,3,4,5] C) { C = Mul<broadcast = 1, axis = -3>(A, B) })",
                   7, R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[2,3,4,5] A, float[3] B) => (float[2,3,4,5] C) {
      B_aligned = Unsqueeze<axes = [1, 2]>(B)
      C = Mul(A, B_aligned)
    })");
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,3,4] A, float[1,1] B) => (float[2,3,4] C) { C = Div<broadcast = 1, axis = 0>(A, B) })",
                   7, R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[2,3,4] A, float[1,1] B) => (float[2,3,4] C) { C = Div(A, B) })");
}

TEST(MathAdapters, LegacyBroadcastTheRuleRefusesIsNotUpgraded) {
  // B [3,3] does not match A's [3,2] at axis 1.
  ExpectRefusal(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,3,2] A, float[3,3] B) => (float[2,3,2] C) { C = Add<broadcast = 1, axis = 1>(A, B) })",
                7, "B of shape [3,3] does not match the dims of A of shape [2,3,2] from axis 1");
  ExpectRefusal(R"(
    <ir_version: 3, opset_import: ["" : 1]>
    g (bool[2,3] A, bool[3] B) => (bool[2,3] C) { C = Or(A, B) })",
                7, "without broadcast=1 the inputs must have the same shape before opset 7");
}

TEST(MathAdapters, LegacyBroadcastOfSizeOneDimsIsUpgradedAsNumpyReadsIt) {
  // "1-dim expansion doesn't work yet" said the opset-6 text; exporters wrote it and ONNX's stored
  // outputs are numpy's: B [3,1] at axis 1 expands over A's last dim, which is numpy's suffix
  // reading.
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,3,2] A, float[3,1] B) => (float[2,3,2] C) { C = Add<broadcast = 1, axis = 1>(A, B) })",
                   7, R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[2,3,2] A, float[3,1] B) => (float[2,3,2] C) { C = Add(A, B) })");
  // At an axis before A's last, B gets the trailing 1s numpy needs to align it there.
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,3,4,5] A, float[1,4] B) => (float[2,3,4,5] C) { C = Mul<broadcast = 1, axis = 1>(A, B) })",
                   7, R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[2,3,4,5] A, float[1,4] B) => (float[2,3,4,5] C) {
      B_aligned = Unsqueeze<axes = [2]>(B)
      C = Mul(A, B_aligned)
    })");
}

TEST(MathAdapters, NumpyBroadcastDowngradesToLegacyAxisWithSqueeze) {
  // B's broadcast 1s after its run of A's dims go, and the run's start becomes the axis.
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[2,3,4] A, float[3,1] B) => (float[2,3,4] C) { C = Add(A, B) })",
                   6, R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,3,4] A, float[3,1] B) => (float[2,3,4] C) {
      B_squeezed = Squeeze<axes = [1]>(B)
      C = Add<broadcast = 1, axis = 1>(A, B_squeezed)
    })");
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[2,3] A, float[2,1] B) => (float[2,3] C) { C = Div(A, B) })",
                   6, R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,3] A, float[2,1] B) => (float[2,3] C) {
      B_squeezed = Squeeze<axes = [1]>(B)
      C = Div<broadcast = 1, axis = 0>(A, B_squeezed)
    })");
  // Leading 1s go too; the run then ends at A's end, where the legacy rule puts B without an axis.
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[N,3] A, float[1,3] B) => (float[N,3] C) { C = Sub(A, B) })",
                   6, R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[N,3] A, float[1,3] B) => (float[N,3] C) {
      B_squeezed = Squeeze<axes = [0]>(B)
      C = Sub<broadcast = 1>(A, B_squeezed)
    })");
  // The operands of a comparison swap when A is the one broadcast.
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[3,1] A, float[2,3,4] B) => (bool[2,3,4] C) { C = Greater(A, B) })",
                   6, R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[3,1] A, float[2,3,4] B) => (bool[2,3,4] C) {
      A_squeezed = Squeeze<axes = [1]>(A)
      C = Less<broadcast = 1, axis = 1>(B, A_squeezed)
    })");
}

TEST(MathAdapters, NumpyBroadcastOfStaticShapesDowngradesWithTile) {
  // Both inputs broadcast: no legacy form, so both are repeated to the output's shape.
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[2,1] A, float[1,3] B) => (float[2,3] C) { C = Div(A, B) })",
                   6, R"(
    <ir_version: 4, opset_import: ["" : 6]>
    g (float[2,1] A, float[1,3] B) => (float[2,3] C)
        <int64[2] A_tiled_repeats = {1, 3}, int64[2] B_tiled_repeats = {2, 1}> {
      A_tiled = Tile(A, A_tiled_repeats)
      B_tiled = Tile(B, B_tiled_repeats)
      C = Div(A_tiled, B_tiled)
    })");
}

TEST(MathAdapters, NumpyBroadcastTheLegacyRuleCannotExpressIsRefused) {
  ExpectRefusal(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[N,3] A, float[M] B) => (float C) { C = Div(A, B) })",
                6, "cannot express");
}

TEST(MathAdapters, ConsumedInputsIsDroppedOnUpgrade) {
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 5]>
    g (float[2,3] X) => (float[2,3] Y) { Y = Abs<consumed_inputs = [0]>(X) })",
                   6, R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,3] X) => (float[2,3] Y) { Y = Abs(X) })");
}

TEST(MathAdapters, TypeRestrictionRefusesMissingType) {
  ExpectRefusal(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (bfloat16[2,3] X) => (bfloat16[2,3] Y) { Y = Abs(X) })",
                12, "bfloat16");
  ExpectRefusal(R"(
    <ir_version: 7, opset_import: ["" : 14]>
    g (int8[2,3] X, int8[2,3] Z) => (int8[2,3] Y) { Y = Add(X, Z) })",
                13, "does not allow");
  // Erf-13 dropped the integer types of Erf-9.
  ExpectRefusal(R"(
    <ir_version: 4, opset_import: ["" : 9]>
    g (int32[2,3] X) => (int32[2,3] Y) { Y = Erf(X) })",
                13, "int32");
}

TEST(MathAdapters, ClipMinMaxMoveBetweenAttributesAndInputs) {
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 10]>
    g (float[2,3] X) => (float[2,3] Y) { Y = Clip<min = -1.0, max = 2.5>(X) })",
                   11, R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[2,3] X) => (float[2,3] Y) <float clip_min = {-1.0}, float clip_max = {2.5}> {
      Y = Clip(X, clip_min, clip_max)
    })");
  ExpectConversion(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[2,3] X) => (float[2,3] Y) <float hi = {0.5}> { Y = Clip(X, , hi) })",
                   10, R"(
    <ir_version: 5, opset_import: ["" : 10]>
    g (float[2,3] X) => (float[2,3] Y) { Y = Clip<max = 0.5>(X) })");
  ExpectRefusal(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[2,3] X, float lo) => (float[2,3] Y) { Y = Clip(X, lo) })",
                10, "compile-time constant");
}

TEST(MathAdapters, GemmOptionalCAndLegacyBroadcast) {
  ExpectConversion(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[2,3] A, float[3,4] B) => (float[2,4] Y) { Y = Gemm(A, B) })",
                   6, R"(
    <ir_version: 4, opset_import: ["" : 6]>
    g (float[2,3] A, float[3,4] B) => (float[2,4] Y) <float gemm_zero_c = {0.0}> {
      Y = Gemm<broadcast = 1>(A, B, gemm_zero_c)
    })");
}

TEST(MathAdapters, GemmCBroadcastDowngrades) {
  // C [1,N] squeezes to the legacy suffix [N]; C [M,1] has no legacy form (Gemm has no axis): Tile.
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[2,3] A, float[3,4] B, float[1,4] C) => (float[2,4] Y) { Y = Gemm(A, B, C) })",
                   6, R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,3] A, float[3,4] B, float[1,4] C) => (float[2,4] Y) {
      C_squeezed = Squeeze<axes = [0]>(C)
      Y = Gemm<broadcast = 1>(A, B, C_squeezed)
    })");
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[2,3] A, float[3,4] B, float[2,1] C) => (float[2,4] Y) { Y = Gemm(A, B, C) })",
                   6, R"(
    <ir_version: 4, opset_import: ["" : 6]>
    g (float[2,3] A, float[3,4] B, float[2,1] C) => (float[2,4] Y) <int64[2] gemm_c_repeats = {1, 4}> {
      C_tiled = Tile(C, gemm_c_repeats)
      Y = Gemm<broadcast = 0>(A, B, C_tiled)
    })");
  // Upgrades drop the attribute; a C that is not broadcast must have A * B's shape.
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,3] A, float[3,4] B, float[4] C) => (float[2,4] Y) { Y = Gemm<broadcast = 1>(A, B, C) })",
                   7, R"(
    <ir_version: 3, opset_import: ["" : 7]>
    g (float[2,3] A, float[3,4] B, float[4] C) => (float[2,4] Y) { Y = Gemm(A, B, C) })");
  ExpectRefusal(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[3,2] A, float[4,3] B, float[4] C) => (float[2,4] Y) { Y = Gemm<transA = 1, transB = 1>(A, B, C) })",
                7, "C is [4], A * B is [2,4]");
}

TEST(MathAdapters, VariadicBroadcastBefore8NeedsEqualShapes) {
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 8]>
    g (float[2,3] A, float[2,3] B) => (float[2,3] Y) { Y = Max(A, B) })",
                   6, R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,3] A, float[2,3] B) => (float[2,3] Y) { Y = Max(A, B) })");
  ExpectRefusal(R"(
    <ir_version: 3, opset_import: ["" : 8]>
    g (float[N,3] A, float[3] B) => (float[N,3] Y) { Y = Sum(A, B) })",
                6, "same shape");
  ExpectConversion(R"(
    <ir_version: 3, opset_import: ["" : 8]>
    g (float[2,3] A, float[3] B) => (float[2,3] Y) { Y = Sum(A, B) })",
                   6, R"(
    <ir_version: 4, opset_import: ["" : 6]>
    g (float[2,3] A, float[3] B) => (float[2,3] Y) <int64[2] B_tiled_repeats = {2, 1}> {
      B_ranked = Unsqueeze<axes = [0]>(B)
      B_tiled = Tile(B_ranked, B_tiled_repeats)
      Y = Sum(A, B_tiled)
    })");
}

TEST(MathAdapters, GreaterOrEqualExpandsBelow12) {
  ExpectConversion(R"(
    <ir_version: 7, opset_import: ["" : 12]>
    g (float[4] A, float[4] B) => (bool[4] C) { C = GreaterOrEqual(A, B) })",
                   11, R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[4] A, float[4] B) => (bool[4] C) {
      C_strict = Greater(A, B)
      C_eq = Equal(A, B)
      C = Or(C_strict, C_eq)
    })");
}

TEST(MathAdapters, RoundTrips) {
  ExpectRoundTrip(R"(
    <ir_version: 6, opset_import: ["" : 11]>
    g (float[2,3] A, float[3] B) => (float[2,3] Y) {
      s = Add(A, B)
      m = Mul(s, A)
      e = Exp(m)
      Y = Clip(e, , )
    })",
                  21);
}

}  // namespace
}  // namespace onnx_opt::converter::testing
