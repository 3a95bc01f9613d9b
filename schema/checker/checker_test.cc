// The checker against a corpus of invalid models, at least one per rule, each rejected with its
// expected message; and valid edge cases that must pass. Models are written in the ONNX text
// syntax.
#include "schema/checker/checker.h"

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "ir/model.h"
#include "ir/tensor.h"
#include "ir/text/parser.h"

namespace onnx_opt::schema::checker {
namespace {

// Whether `text` contains `part`, with both shown on failure.
::testing::AssertionResult Contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected to find:\n  " << part << "\nin:\n" << text;
}

std::unique_ptr<ir::Model> Parse(const std::string& text) {
  auto m = ir::text::ParseModel(text);
  EXPECT_TRUE(m.ok()) << m.status() << "\n" << text;
  return m.ok() ? *std::move(m) : nullptr;
}

std::string Joined(const std::vector<std::string>& lines) {
  return lines.empty() ? "(none)" : "\n  " + absl::StrJoin(lines, "\n  ");
}

// --- Invalid models: one case per rule
// -------------------------------------------------------------

struct InvalidCase {
  std::string name;
  std::string text;
  std::string expected;  // a substring of one of the errors
  CheckOptions options = {};
  // Applied after parsing, for what the text syntax refuses to spell.
  std::function<void(ir::Model&)> tweak = nullptr;
};

std::ostream& operator<<(std::ostream& os, const InvalidCase& c) { return os << c.name; }

// A model header and a main graph named 'g'.
std::string M(const std::string& header, const std::string& graph) {
  return absl::StrCat("<", header, ">\n", graph);
}
const char kIr10[] = R"(ir_version: 10, opset_import: ["" : 21])";
const char kIr8[] = R"(ir_version: 8, opset_import: ["" : 13])";

std::vector<InvalidCase> InvalidCases() {
  return {
      // --- model: ir_version and opset imports
      {"IrVersionMissing",
       M(R"(opset_import: ["" : 13])", "g (float[2] x) => (float[2] y) { y = Relu(x) }"),
       "model: ir_version is not set"},
      {"IrVersionTooNew",
       M(R"(ir_version: 99, opset_import: ["" : 13])",
         "g (float[2] x) => (float[2] y) { y = Relu(x) }"),
       "model: ir_version 99 is newer than the newest IR version known (13)"},
      {"NoOpsetImport", M("ir_version: 8", "g (float[2] x) => (float[2] y) { y = Relu(x) }"),
       "model: IR version 8 requires opset_import to name the operator sets used, but it is empty"},
      {"OpsetImportBeforeIr3",
       M(R"(ir_version: 2, opset_import: ["" : 1])",
         "g (float[2] x) => (float[2] y) { y = Relu(x) }"),
       "model: IR version 2 (< 3) cannot have opset_import entries"},
      {"UnknownOpsetVersion",
       M(R"(ir_version: 13, opset_import: ["" : 29])",
         "g (float[2] x) => (float[2] y) { y = Relu(x) }"),
       "model: imports opset 29 of domain 'ai.onnx', but its known opsets are 1 to 28"},
      {"DuplicateOpsetImport",
       M(R"(ir_version: 8, opset_import: ["" : 13, "ai.onnx" : 14])",
         "g (float[2] x) => (float[2] y) { y = Relu(x) }"),
       "model: opset_import lists domain 'ai.onnx' twice (versions 13 and 14)"},
      {"DuplicateMetadataKey",
       M(R"(ir_version: 8, opset_import: ["" : 13], metadata_props: ["k" : "a", "k" : "b"])",
         "g (float[2] x) => (float[2] y) { y = Relu(x) }"),
       "model: metadata_props key 'k' appears more than once"},

      // --- nodes: domains and operators
      {"CustomDomainNotImported",
       M(kIr8, "g (float[2] x) => (float[2] y) { [n0] y = com.example.Foo(x) }"),
       "graph 'g', node 0 'n0' (com.example::Foo): domain 'com.example' is not imported (no "
       "opset_import entry in the model)"},
      {"DefaultDomainNotImported",
       M(R"(ir_version: 8, opset_import: ["ai.onnx.ml" : 3])",
         "g (float[2] x) => (float[2] y) { y = Relu(x) }"),
       "graph 'g', node 0 (Relu): domain 'ai.onnx' is not imported (no opset_import entry in the "
       "model)"},
      {"OpNotYetDefined", M(kIr8, "g (float[2] x) => (float[2] y) { y = Gelu(x) }"),
       "graph 'g', node 0 (Gelu): operator Gelu is not defined in domain ai.onnx at opset 13 "
       "(introduced at opset 20)"},
      {"OpRemoved",
       M(R"(ir_version: 5, opset_import: ["" : 10])",
         "g (float[1,1,2,2] x, float[4] s) => (float[1,1,4,4] y) { y = Upsample(x, s) }"),
       "graph 'g', node 0 (Upsample): operator Upsample is not defined in domain ai.onnx at opset "
       "10 (removed at opset 10)"},
      {"UnknownOp", M(kIr8, "g (float[2] x) => (float[2] y) { y = Frobnicate(x) }"),
       "graph 'g', node 0 (Frobnicate): operator Frobnicate is not defined in domain ai.onnx"},
      {"UnknownCustomOpWhenCheckingCustomDomains",
       M(R"(ir_version: 8, opset_import: ["" : 13, "com.example" : 1])",
         "g (float[2] x) => (float[2] y) { y = com.example.Foo(x) }"),
       "graph 'g', node 0 (com.example::Foo): com.example::Foo is neither a known operator nor a "
       "model-local function",
       CheckOptions{.check_custom_domains = true}},
      {"MicrosoftOperatorMissingRequiredAttribute",
       M(R"(ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1])",
         "g (float[2,8] a, uint8[4,1,4] b, float[4,1] s) => (float[2,4] y) { y = "
         "com.microsoft.MatMulNBits<K = 8, N = 4>(a, b, s) }"),
       "block_size"},
      {"MicrosoftOperatorWrongType",
       M(R"(ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1])",
         "g (int32[2] x) => (int32[2] y) { y = com.microsoft.FastGelu(x) }"),
       "FastGelu"},
      {"NoInputsNoOutputs",
       M(R"(ir_version: 8, opset_import: ["" : 13, "com.example" : 1])",
         "g (float[2] x) => (float[2] x) { = com.example.Print() }"),
       "graph 'g', node 0 (com.example::Print): the node has no inputs and no outputs"},

      // --- arity
      {"TooFewInputs", M(kIr8, "g (float[2] x) => (float[2] y) { y = Add(x) }"),
       "graph 'g', node 0 (Add): has 1 input but ai.onnx::Add-13 takes exactly 2"},
      {"TooManyInputs", M(kIr8, "g (float[2] x) => (float[2] y) { y = Relu(x, x) }"),
       "graph 'g', node 0 (Relu): has 2 inputs but ai.onnx::Relu-13 takes exactly 1"},
      {"TooManyOutputs", M(kIr8, "g (float[2] x) => (float[2] y) { y, z = Relu(x) }"),
       "graph 'g', node 0 (Relu): has 2 outputs but ai.onnx::Relu-13 produces exactly 1"},
      {"VariadicBelowMinArity",
       M(kIr8, "g (float[2] x) => (float[2] y) { y = Concat<axis = 0>() }"),
       "graph 'g', node 0 (Concat): has 0 inputs but ai.onnx::Concat-13 takes at least 1"},
      {"OptionalInputsOutOfRange",
       M(kIr8, "g (float[2] x, float m) => (float[2] y) { y = Clip(x, m, m, m) }"),
       "graph 'g', node 0 (Clip): has 4 inputs but ai.onnx::Clip-13 takes 1 to 3"},
      {"RequiredInputOmitted",
       M(kIr8,
         "g (float[1,1,3,3] x, float[1] b) => (float[1,1,3,3] y) { [conv] y = Conv(x, , b) }"),
       "graph 'g', node 0 'conv' (Conv): input 1 ('W') is required but omitted (empty name)"},
      {"RequiredOutputOmitted", M(kIr8, "g (float[2] x) => (bool[2] m) { , m = Dropout(x) }"),
       "graph 'g', node 0 (Dropout): output 0 ('output') is required but omitted (empty name)"},

      // --- attributes
      {"AttributeWrongType",
       M(kIr8, R"(g (float[1,1,3,3] x, float[1,1,1,1] w) => (float[1,1,3,3] y) {
           a = Relu(x)
           b = Relu(a)
           c = Relu(b)
           [conv1] y = Conv<kernel_shape = 1.0>(c, w)
         })"),
       "graph 'g', node 3 'conv1' (Conv): attribute 'kernel_shape' has type FLOAT but the schema "
       "requires INTS"},
      {"UnknownAttribute", M(kIr8, "g (float[2] x) => (float[2] y) { y = Relu<alpha = 0.5>(x) }"),
       "graph 'g', node 0 (Relu): attribute 'alpha' is not defined by ai.onnx::Relu-13 (it has no "
       "attributes)"},
      {"RequiredAttributeMissing", M(kIr8, "g (float[2] x) => (float[2] y) { y = Concat(x) }"),
       "graph 'g', node 0 (Concat): required attribute 'axis' (INT) is missing"},
      {"DuplicateAttribute",
       M(kIr8,
         "g (float[2,3] x) => (float[3,2] y) { y = Transpose<perm = [1, 0], p2 = [1, 0]>(x) }"),
       "graph 'g', node 0 (Transpose): attribute 'perm' appears more than once",
       {},
       [](ir::Model& m) { m.graph().first_node()->FindMutableAttribute("p2")->set_name("perm"); }},
      {"ReferenceOutsideFunction",
       M(kIr8, "g (float[2] x) => (float[2] y) { y = LeakyRelu<alpha: float = @a>(x) }"),
       "graph 'g', node 0 (LeakyRelu): attribute 'alpha' refers to 'a' (ref_attr_name), which is "
       "only allowed inside a function body"},
      {"GraphAttributeOfWrongType",
       M(kIr8, "g (bool c) => (float[2] y) { y = If<then_branch = 1, else_branch = 2>(c) }"),
       "graph 'g', node 0 (If): attribute 'then_branch' has type INT but the schema requires "
       "GRAPH"},

      // --- type constraints
      {"TypeNotAllowedByConstraint", M(kIr8, "g (int32[2] x) => (int32[2] y) { y = Sqrt(x) }"),
       "graph 'g', node 0 (Sqrt): input 0 'X' (value 'x') has type tensor(int32), which type "
       "constraint T of ai.onnx::Sqrt-13 does not allow (allowed: tensor(float16), tensor(float), "
       "tensor(double), tensor(bfloat16))"},
      {"ConstraintBoundInconsistently",
       M(kIr8, "g (float[2] a, double[2] b) => (float[2] c) { c = Add(a, b) }"),
       "graph 'g', node 0 (Add): input 1 'B' (value 'b') has type tensor(double) but T is already "
       "bound to tensor(float) by input 0 'A' (value 'a')"},
      {"OutputTypeDisagreesWithInputs", M(kIr8, "g (float[2] x) => (double[2] y) { y = Relu(x) }"),
       "graph 'g', node 0 (Relu): output 0 'Y' (value 'y') has type tensor(double) but T is "
       "already bound to tensor(float) by input 0 'X' (value 'x')"},
      {"ConcreteTypeMismatch",
       M(kIr8, "g (float[2,3] x, float[2] s) => (float[3,2] y) { y = Reshape(x, s) }"),
       "graph 'g', node 0 (Reshape): input 1 'shape' (value 's') has type tensor(float) but the "
       "schema requires tensor(int64)"},
      {"IntermediateValueInfoChecked",
       M(kIr8, "g (float[2] x) => (float[2] z) <double[2] y> { y = Relu(x) z = Cast<to = 1>(y) }"),
       "graph 'g', node 0 (Relu): output 0 'Y' (value 'y') has type tensor(double) but T is "
       "already bound to tensor(float) by input 0 'X' (value 'x')"},

      // --- structure (ir::Verify)
      {"NotTopologicallySorted",
       M(kIr8, "g (float[2] x) => (float[2] y) { y = Relu(a) a = Relu(x) }"),
       "graph 'g', node 0 (Relu): structure: graph 'g': node producing 'y' (Relu) uses 'a' before "
       "it is defined (nodes are not in topological order)"},

      {"NotSsa",
       M(kIr8, "g (float[2] x) => (float[2] y) { a = Relu(x) y = Relu(a) }"),
       "graph 'g', node 0 (Relu): structure: graph 'g': 'x' is defined more than once (output of "
       "node producing 'x' (Relu)); values must be in single static assignment form",
       {},
       [](ir::Model& m) { m.graph().first_node()->output(0)->set_name("x"); }},
      {"SubgraphRedefinesOuterName",
       M(kIr8, R"(g (bool c, float[2] x) => (float[2] y) {
           y = If(c) <then_branch = then_g () => (t) { t = Relu(x) }, else_branch = else_g () => (e) { e = Abs(x) }>
         })"),
       "structure: graph 'then_g': 'x' is defined more than once",
       {},
       [](ir::Model& m) {
         m.graph()
             .first_node()
             ->FindMutableAttribute("then_branch")
             ->g->first_node()
             ->output(0)
             ->set_name("x");
       }},

      // --- graphs: names, initializers, interface types
      {"InitializerNotInputBeforeIr4",
       M(R"(ir_version: 3, opset_import: ["" : 8])",
         "g (float[2] x) => (float[2] y) <float[2] w = {1.0, 2.0}> { y = Add(x, w) }"),
       "graph 'g': initializer 'w' is not a graph input; IR version 3 (< 4) requires every "
       "initializer to be listed as an input too"},
      {"MainInputWithoutType", M(kIr8, "g (x) => (float[2] y) { y = Relu(x) }"),
       "graph 'g': input 'x' has no type; main graph inputs and outputs need one"},
      {"MainOutputWithoutType", M(kIr8, "g (float[2] x) => (y) { y = Relu(x) }"),
       "graph 'g': output 'y' has no type; main graph inputs and outputs need one"},
      {"MainOutputWithoutShape", M(kIr8, "g (float[2] x) => (float[] y) { y = Relu(x) }"),
       "graph 'g': output 'y': tensor type has no shape; main graph inputs and outputs need at "
       "least a rank"},
      {"MainOutputWithoutElementType",
       M(kIr8, "g (float[2] x) => (undefined[2] y) { y = Relu(x) }"),
       "graph 'g': output 'y': tensor type has no element type"},
      {"GraphWithoutName",
       M(kIr8, "g (float[2] x) => (float[2] y) { y = Relu(x) }"),
       "graph '': the graph has no name",
       {},
       [](ir::Model& m) { m.graph().set_name(""); }},
      {"NegativeDimension",
       M(kIr8, "g (float[2] x) => (float[2] y) { y = Relu(x) }"),
       "graph 'g': input 'x': shape [-1] has a negative dimension",
       {},
       [](ir::Model& m) {
         m.graph().inputs()[0]->set_type(
             ir::Type::Tensor(ir::DataType::kFloat, ir::Shape({ir::Dim::Known(-1)})));
       }},
      {"AttributeWithoutType",
       M(kIr8, "g (float[2] x) => (float[2] y) { y = LeakyRelu<alpha = 0.5>(x) }"),
       "graph 'g', node 0 (LeakyRelu): attribute 'alpha' has no type",
       {},
       [](ir::Model& m) {
         m.graph().first_node()->FindMutableAttribute("alpha")->set_kind(
             ir::AttributeKind::kUndefined);
       }},
      {"AttributeWithoutName",
       M(kIr8, "g (float[2] x) => (float[2] y) { y = LeakyRelu<alpha = 0.5>(x) }"),
       "graph 'g', node 0 (LeakyRelu): an attribute has no name",
       {},
       [](ir::Model& m) { m.graph().first_node()->FindMutableAttribute("alpha")->set_name(""); }},
      {"EmptyOpType",
       M(kIr8, "g (float[2] x) => (float[2] y) { y = Relu(x) }"),
       "graph 'g', node 0 (): op_type is empty",
       {},
       [](ir::Model& m) { m.graph().first_node()->set_op_type(""); }},
      {"SequenceBeforeIr6",
       M(R"(ir_version: 5, opset_import: ["" : 10])",
         "g (float[2] x) => (float[2] y) <seq(float[2]) s> { y = Relu(x) s = Foo(x) }"),
       "sequence types need IR version >= 6 (the model has 5)"},
      {"SequenceInterfaceWithoutElementType",
       M(kIr8, "g (float[2] x) => (seq() s) { s = SequenceConstruct(x) }"),
       "graph 'g': output 's': sequence type has no element type"},
      // Element types newer than the IR version (float8 came with IR 9, int4 with 10, float4e2m1
      // with 11, float8e8m0 with 12, int2 with 13), wherever the model names them. An opset newer
      // than the IR version only warns (below); these runtimes refuse.
      {"Float8InputAtIr8",
       M(R"(ir_version: 8, opset_import: ["" : 19])",
         "g (float8e4m3fn[2] x) => (float[2] y) { y = Cast<to = 1>(x) }"),
       "graph 'g': input 'x': element type float8e4m3fn needs IR version >= 9 (the model has 8)"},
      {"Float8OutputAtIr8",
       M(R"(ir_version: 8, opset_import: ["" : 19])",
         "g (float[2] x) => (float8e5m2[2] y) { y = Cast<to = 19>(x) }"),
       "graph 'g': output 'y': element type float8e5m2 needs IR version >= 9 (the model has 8)"},
      {"Float8ValueInfoAtIr8",
       M(R"(ir_version: 8, opset_import: ["" : 19])",
         "g (float[2] x) => (float[2] y) <float8e4m3fnuz[2] t> { t = Cast<to = 18>(x) y = Cast<to "
         "= 1>(t) }"),
       "graph 'g', node 0 (Cast): output 't': element type float8e4m3fnuz needs IR version >= 9 "
       "(the model has 8)"},
      {"Float8CastTargetAtIr8",
       M(R"(ir_version: 8, opset_import: ["" : 19])",
         "g (float[2] x) => (float[2] y) { t = Cast<to = 20>(x) y = Cast<to = 1>(t) }"),
       "graph 'g', node 0 (Cast): output 0, as the node's attributes type it: element type "
       "float8e5m2fnuz needs IR version >= 9 (the model has 8)"},
      {"Float8InitializerAtIr8",
       M(R"(ir_version: 8, opset_import: ["" : 19])",
         "g (float[2] x) => (float[2] y) <float8e4m3fn[2] w = {1.0, 2.0}> { wf = Cast<to = 1>(w) y "
         "= Add(x, wf) }"),
       "graph 'g': initializer 'w': element type float8e4m3fn needs IR version >= 9 (the model has "
       "8)"},
      {"Float8ConstantAtIr8",
       M(R"(ir_version: 8, opset_import: ["" : 19])",
         "g (float[2] x) => (float[2] y) { w = Constant<value = float8e4m3fn[2] {1.0, 2.0}>() wf = "
         "Cast<to = 1>(w) y = Add(x, wf) }"),
       "graph 'g', node 0 (Constant): attribute 'value': element type float8e4m3fn needs IR "
       "version >= 9 (the model has 8)"},
      {"Float8InASubgraphAtIr8",
       M(R"(ir_version: 8, opset_import: ["" : 19])", R"(g (bool c, float[2] x) => (float[2] y) {
           y = If(c) <then_branch = then_g () => (float[2] t) { q = Cast<to = 17>(x) t = Cast<to = 1>(q) },
                      else_branch = else_g () => (float[2] e) { e = Abs(x) }>
         })"),
       "node 0 (Cast): output 0, as the node's attributes type it: element type float8e4m3fn needs "
       "IR version >= 9 (the model has 8)"},
      {"Int4AtIr9",
       M(R"(ir_version: 9, opset_import: ["" : 21])",
         "g (int4[2] x) => (float[2] y) { y = Cast<to = 1>(x) }"),
       "graph 'g': input 'x': element type int4 needs IR version >= 10 (the model has 9)"},
      {"Float4AtIr10",
       M(R"(ir_version: 10, opset_import: ["" : 23])",
         "g (float4e2m1[2] x) => (float[2] y) { y = Cast<to = 1>(x) }"),
       "graph 'g': input 'x': element type float4e2m1 needs IR version >= 11 (the model has 10)"},
      {"Float8E8M0AtIr11",
       M(R"(ir_version: 11, opset_import: ["" : 24])",
         "g (float[2] x) => (float[2] y) { t = Cast<to = 24>(x) y = Cast<to = 1>(t) }"),
       "element type float8e8m0 needs IR version >= 12 (the model has 11)"},
      {"Int2AtIr12",
       M(R"(ir_version: 12, opset_import: ["" : 25])",
         "g (uint2[4] x) => (float[4] y) { y = Cast<to = 1>(x) }"),
       "graph 'g': input 'x': element type uint2 needs IR version >= 13 (the model has 12)"},
      {"Float8InAFunctionAtIr8",
       M(R"(ir_version: 8, opset_import: ["" : 19, "local" : 1])",
         R"(g (float[2] x) => (float[2] y) { y = local.f(x) }
            <domain: "local", opset_import: ["" : 19]> f (p) => (q) { r = Cast<to = 17>(p) q = Cast<to = 1>(r) })"),
       "function 'local::f', node 0 (Cast): output 0, as the node's attributes type it: element "
       "type float8e4m3fn needs IR version >= 9 (the model has 8)"},
      {"MapWithFloatKey",
       M(R"(ir_version: 8, opset_import: ["" : 13, "ai.onnx.ml" : 2])",
         "g (map(float, float) m) => (float[2] y) { y = ai.onnx.ml.Foo(m) }"),
       "graph 'g': input 'm': map key type float is not allowed (integers or string)"},

      // --- subgraphs: errors are located through the enclosing node
      {"ErrorInsideSubgraph", M(kIr8, R"(g (bool c, float[2] x) => (float[2] y) {
           [if1] y = If(c) <then_branch = then_g () => (float[2] t) { t = Add(x) },
                            else_branch = else_g () => (float[2] e) { e = Relu(x) }>
         })"),
       "graph 'then_g' (attribute 'then_branch' of graph 'g', node 0 'if1' (If)), node 0 (Add): "
       "has 1 input but ai.onnx::Add-13 takes exactly 2"},

      // --- tensors and external data
      {"ExternalDataAbsoluteLocation",
       M(kIr8,
         R"(g (float[2] x) => (float[2] y) <float[2] w = ["location": "/etc/weights.bin"]> { y = Add(x, w) })"),
       "graph 'g': initializer 'w': external data location '/etc/weights.bin' is an absolute path; "
       "it must be relative to the model's folder"},
      {"ExternalDataEscapesFolder",
       M(kIr8,
         R"(g (float[2] x) => (float[2] y) <float[2] w = ["location": "../w.bin"]> { y = Add(x, w) })"),
       "graph 'g': initializer 'w': external data location '../w.bin' points outside the model's "
       "folder"},
      {"ExternalDataWithoutLocation",
       M(kIr8,
         R"(g (float[2] x) => (float[2] y) <float[2] w = ["offset": "0"]> { y = Add(x, w) })"),
       "graph 'g': initializer 'w': stored externally but has no external data location"},
      {"ExternalDataBadOffset",
       M(kIr8,
         R"(g (float[2] x) => (float[2] y) <float[2] w = ["location": "w.bin", "offset": "-4"]> { y = Add(x, w) })"),
       "graph 'g': initializer 'w': external data offset '-4' is not a non-negative integer"},

      // --- model-local functions
      {"FunctionsBeforeIr8",
       M(R"(ir_version: 7, opset_import: ["" : 13, "local" : 1])",
         R"(g (float[2] x) => (float[2] y) { y = local.f(x) }
            <domain: "local", opset_import: ["" : 13]> f (a) => (b) { b = Relu(a) })"),
       "model: model-local functions need IR version >= 8 (the model has 7)"},
      {"FunctionBodyDomainNotImported",
       M(R"(ir_version: 8, opset_import: ["" : 13, "local" : 1])",
         R"(g (float[2] x) => (float[2] y) { y = local.f(x) }
            <domain: "local", opset_import: ["com.other" : 1]> f (a) => (b) { b = Relu(a) })"),
       "function 'local::f', node 0 (Relu): domain 'ai.onnx' is not imported (no opset_import "
       "entry in function 'local::f')"},
      {"FunctionBodyError",
       M(R"(ir_version: 8, opset_import: ["" : 13, "local" : 1])",
         R"(g (float[2] x) => (float[2] y) { y = local.f(x) }
            <domain: "local", opset_import: ["" : 13]> f (a) => (b) { b = Relu<alpha = 1.0>(a) })"),
       "function 'local::f', node 0 (Relu): attribute 'alpha' is not defined by ai.onnx::Relu-13"},
      {"FunctionReferenceToUndeclaredAttribute",
       M(R"(ir_version: 8, opset_import: ["" : 13, "local" : 1])",
         R"(g (float[2] x) => (float[2] y) { y = local.f(x) }
            <domain: "local", opset_import: ["" : 13]> f <alpha> (a) => (b) { b = LeakyRelu<alpha: float = @beta>(a) })"),
       "function 'local::f', node 0 (LeakyRelu): attribute 'alpha' refers to attribute 'beta', "
       "which function 'local::f' does not declare"},
      {"FunctionCallUnknownAttribute",
       M(R"(ir_version: 8, opset_import: ["" : 13, "local" : 1])",
         R"(g (float[2] x) => (float[2] y) { y = local.f<gamma = 1.0>(x) }
            <domain: "local", opset_import: ["" : 13]> f <alpha> (a) => (b) { b = LeakyRelu<alpha: float = @alpha>(a) })"),
       "graph 'g', node 0 (local::f): attribute 'gamma' is not declared by function 'local::f' (it "
       "has: alpha)"},
      {"FunctionCallTooManyInputs",
       M(R"(ir_version: 8, opset_import: ["" : 13, "local" : 1])",
         R"(g (float[2] x) => (float[2] y) { y = local.f(x, x) }
            <domain: "local", opset_import: ["" : 13]> f (a) => (b) { b = Relu(a) })"),
       "graph 'g', node 0 (local::f): has 2 inputs but function 'local::f' takes at most 1"},
      {"FunctionOverloadNotDefined",
       M(R"(ir_version: 10, opset_import: ["" : 13, "local" : 1])",
         R"(g (float[2] x) => (float[2] y) { y = local.f:v2(x) }
            <domain: "local", opset_import: ["" : 13]> f (a) => (b) { b = Relu(a) })"),
       "graph 'g', node 0 (local::f): calls function 'local::f:v2', which the model does not "
       "define"},
      {"FunctionOpsetIncompatibleWithModel",
       M(R"(ir_version: 8, opset_import: ["" : 13, "local" : 1])",
         R"(g (float[2] x) => (float[2] y) { y = local.f(x) }
            <domain: "local", opset_import: ["" : 14]> f (a) => (b) { b = Add(a, a) })"),
       "function 'local::f', node 0 (Add): the function imports opset 14 of domain 'ai.onnx' but "
       "the model imports 13, and Add differs between them (ai.onnx::Add-14 vs ai.onnx::Add-13)"},
      {"FunctionDefinedTwice",
       M(R"(ir_version: 8, opset_import: ["" : 13, "local" : 1])",
         R"(g (float[2] x) => (float[2] y) { y = local.f(x) }
            <domain: "local", opset_import: ["" : 13]> f (a) => (b) { b = Relu(a) }
            <domain: "local", opset_import: ["" : 13]> f (a) => (b) { b = Abs(a) })"),
       "function 'local::f': defined more than once (domain, name and overload must be unique)"},
      {"FunctionAttributeDeclaredTwice",
       M(R"(ir_version: 9, opset_import: ["" : 13, "local" : 1])",
         R"(g (float[2] x) => (float[2] y) { y = local.f(x) }
            <domain: "local", opset_import: ["" : 13]> f <alpha, beta: float = 1.0> (a) => (b) { b = Relu(a) })"),
       "function 'local::f': attribute 'alpha' is declared more than once",
       {},
       [](ir::Model& m) {
         m.mutable_functions()[0]->mutable_attribute_defaults()[0].set_name("alpha");
       }},
      {"RecursiveFunction",
       M(R"(ir_version: 8, opset_import: ["" : 13, "local" : 1])",
         R"(g (float[2] x) => (float[2] y) { y = local.f(x) }
            <domain: "local", opset_import: ["" : 13, "local" : 1]> f (a) => (b) { b = local.h(a) }
            <domain: "local", opset_import: ["" : 13, "local" : 1]> h (a) => (b) { b = local.f(a) })"),
       "function 'local::f': calls itself (local::f -> local::h -> local::f); recursive functions "
       "cannot be expanded"},
      {"FunctionOutputListedTwice",
       M(R"(ir_version: 8, opset_import: ["" : 13, "local" : 1])",
         R"(g (float[2] x) => (float[2] y) { y = local.f(x) }
            <domain: "local", opset_import: ["" : 13]> f (a) => (b, b) { b = Relu(a) })"),
       "function 'local::f': output 'b' is listed more than once"},
      // --- control flow: subgraphs against the node (Operators.md, If/Loop/Scan)
      {"IfBranchWithMoreOutputsThanTheNode", M(kIr8, R"(g (bool c, float[2] x) => (float[2] y) {
           [if1] y = If(c) <then_branch = then_g () => (float[2] t, float[2] u) { t = Relu(x) u = Abs(x) },
                            else_branch = else_g () => (float[2] e, float[2] f) { e = Abs(x) f = Neg(x) }>
         })"),
       "graph 'g', node 0 'if1' (If): then_branch 'then_g' produces 2 outputs but the node has 1 "
       "output (each branch must produce one per node output)"},
      {"IfBranchesDisagreeInOutputCount",
       M(kIr8, R"(g (bool c, float[2] x) => (float[2] y, float[2] z) {
           y, z = If(c) <then_branch = then_g () => (float[2] t, float[2] u) { t = Relu(x) u = Abs(x) },
                         else_branch = else_g () => (float[2] e) { e = Abs(x) }>
         })"),
       "graph 'g', node 0 (If): else_branch 'else_g' produces 1 output but the node has 2 outputs"},
      {"IfBranchesDisagreeInElementType", M(kIr8, R"(g (bool c, float[2] x) => (float[2] y) {
           y = If(c) <then_branch = then_g () => (float[2] t) { t = Relu(x) },
                      else_branch = else_g () => (int64[2] e) { e = Cast<to = 7>(x) }>
         })"),
       "graph 'g', node 0 (If): then_branch output 0 has type tensor(float) but else_branch output "
       "0 has tensor(int64)"},
      {"IfBranchOutputDisagreesWithTheNode", M(kIr8, R"(g (bool c, float[2] x) => (int64[2] y) {
           y = If(c) <then_branch = then_g () => (float[2] t) { t = Relu(x) },
                      else_branch = else_g () => (float[2] e) { e = Abs(x) }>
         })"),
       "graph 'g', node 0 (If): then_branch 'then_g' output 0 't' has type tensor(float) but node "
       "output 0 has tensor(int64)"},
      {"IfBranchWithAnInput", M(kIr8, R"(g (bool c, float[2] x) => (float[2] y) {
           y = If(c) <then_branch = then_g (float[2] p) => (float[2] t) { t = Relu(p) },
                      else_branch = else_g () => (float[2] e) { e = Abs(x) }>
         })"),
       "graph 'g', node 0 (If): then_branch 'then_g' takes 1 input but If passes none (input 'p')"},
      {"LoopBodyMissingTheIterationNumber",
       M(kIr8, R"(g (int64 n, bool c, float[2] x) => (float[2] y) {
           y = Loop(n, c, x) <body = body (bool c_in, float[2] x_in) => (bool c_out, float[2] x_out) {
             c_out = Identity(c_in)
             x_out = Relu(x_in)
           }>
         })"),
       "graph 'g', node 0 (Loop): body 'body' takes 2 inputs but the node passes 3 (iteration "
       "number, condition and 1 loop-carried value)"},
      {"LoopBodyWithTooFewOutputs",
       M(kIr8, R"(g (int64 n, bool c, float[2] x) => (float[2] y, float[3,2] ys) {
           y, ys = Loop(n, c, x) <body = body (int64 i, bool c_in, float[2] x_in) => (bool c_out, float[2] x_out) {
             c_out = Identity(c_in)
             x_out = Relu(x_in)
           }>
         })"),
       "graph 'g', node 0 (Loop): body 'body' produces 2 outputs but the node needs 3 (condition, "
       "1 loop-carried value and 1 scan output)"},
      {"LoopWithFewerOutputsThanCarriedValues",
       M(kIr8, R"(g (int64 n, bool c, float[2] x, float[2] z) => (float[2] y) {
           y = Loop(n, c, x, z) <body = body (int64 i, bool c_in, float[2] x_in, float[2] z_in) => (bool c_out, float[2] x_out) {
             c_out = Identity(c_in)
             x_out = Add(x_in, z_in)
           }>
         })"),
       "graph 'g', node 0 (Loop): has 2 loop-carried inputs but 1 output; the first outputs are "
       "the final loop-carried values"},
      {"LoopIterationNumberNotInt64", M(kIr8, R"(g (int64 n, bool c, float[2] x) => (float[2] y) {
           y = Loop(n, c, x) <body = body (int32 i, bool c_in, float[2] x_in) => (bool c_out, float[2] x_out) {
             c_out = Identity(c_in)
             x_out = Relu(x_in)
           }>
         })"),
       "graph 'g', node 0 (Loop): body 'body' input 0 'i' (iteration number) has type "
       "tensor(int32) but must be tensor(int64)"},
      {"LoopConditionOutputNotBool", M(kIr8, R"(g (int64 n, bool c, float[2] x) => (float[2] y) {
           y = Loop(n, c, x) <body = body (int64 i, bool c_in, float[2] x_in) => (float c_out, float[2] x_out) {
             c_out = Cast<to = 1>(c_in)
             x_out = Relu(x_in)
           }>
         })"),
       "graph 'g', node 0 (Loop): body 'body' output 0 'c_out' (condition) has type tensor(float) "
       "but must be tensor(bool)"},
      {"LoopCarriedValueChangesType", M(kIr8, R"(g (int64 n, bool c, float[2] x) => (float[2] y) {
           y = Loop(n, c, x) <body = body (int64 i, bool c_in, float[2] x_in) => (bool c_out, int64[2] x_out) {
             c_out = Identity(c_in)
             x_out = Cast<to = 7>(x_in)
           }>
         })"),
       "graph 'g', node 0 (Loop): body 'body' output 1 has type tensor(int64) but node input 2 has "
       "tensor(float)"},
      {"LoopScanOutputElementType",
       M(kIr8, R"(g (int64 n, bool c, float[2] x) => (float[2] y, int64[?,2] ys) {
           y, ys = Loop(n, c, x) <body = body (int64 i, bool c_in, float[2] x_in) => (bool c_out, float[2] x_out, float[2] s) {
             c_out = Identity(c_in)
             x_out = Relu(x_in)
             s = Identity(x_out)
           }>
         })"),
       "graph 'g', node 0 (Loop): body 'body' output 2 has element type float but node output 1 "
       "has int64"},
      {"ScanBodyWithTooFewInputs",
       M(kIr8, R"(g (float[2] h, float[5,2] xs) => (float[2] hn, float[5,2] ys) {
           hn, ys = Scan(h, xs) <num_scan_inputs = 1, body = body (float[2] x) => (float[2] h_out, float[2] y) {
             h_out = Relu(x)
             y = Identity(h_out)
           }>
         })"),
       "graph 'g', node 0 (Scan): body 'body' takes 1 input but the node passes 2 (1 state value "
       "and 1 scan input)"},
      {"ScanBodyWithTooManyOutputs", M(kIr8, R"(g (float[2] h, float[5,2] xs) => (float[2] hn) {
           hn = Scan(h, xs) <num_scan_inputs = 1, body = body (float[2] h_in, float[2] x) => (float[2] h_out, float[2] y) {
             h_out = Add(h_in, x)
             y = Identity(h_out)
           }>
         })"),
       "graph 'g', node 0 (Scan): body 'body' produces 2 outputs but the node has 1 (1 state value "
       "and 0 scan outputs)"},
      {"ScanNumScanInputsBeyondTheInputs", M(kIr8, R"(g (float[5,2] xs) => (float[5,2] ys) {
           ys = Scan(xs) <num_scan_inputs = 2, body = body (float[2] x) => (float[2] y) { y = Relu(x) }>
         })"),
       "graph 'g', node 0 (Scan): num_scan_inputs is 2 but the node has 1 input (the scan inputs "
       "are the last ones)"},
      {"ScanAxesListTooLong", M(kIr8, R"(g (float[5,2] xs) => (float[5,2] ys) {
           ys = Scan(xs) <num_scan_inputs = 1, scan_input_axes = [0, 1], body = body (float[2] x) => (float[2] y) { y = Relu(x) }>
         })"),
       "graph 'g', node 0 (Scan): attribute 'scan_input_axes' lists 2 values but needs one per "
       "scan input (1)"},
      {"ScanStateChangesType",
       M(kIr8, R"(g (float[2] h, float[5,2] xs) => (float[2] hn, float[5,2] ys) {
           hn, ys = Scan(h, xs) <num_scan_inputs = 1, body = body (float[2] h_in, float[2] x) => (int64[2] h_out, float[2] y) {
             h_out = Cast<to = 7>(h_in)
             y = Identity(x)
           }>
         })"),
       "graph 'g', node 0 (Scan): body 'body' output 0 has type tensor(int64) but node output 0 "
       "has tensor(float)"},
      {"Scan8CountsSequenceLensApart",
       M(R"(ir_version: 3, opset_import: ["" : 8])",
         R"(g (float[1,2] h, float[1,5,2] xs) => (float[1,2] hn, float[1,5,2] ys) {
           hn, ys = Scan(, h, xs) <num_scan_inputs = 1, body = body (float[2] h_in) => (float[2] h_out, float[2] y) {
             h_out = Relu(h_in)
             y = Identity(h_out)
           }>
         })"),
       "graph 'g', node 0 (Scan): body 'body' takes 1 input but the node passes 2 (1 state value "
       "and 1 scan input)"},
      {"Scan8DirectionsPerScanInput",
       M(R"(ir_version: 3, opset_import: ["" : 8])", R"(g (float[1,5,2] xs) => (float[1,5,2] ys) {
           ys = Scan(, xs) <num_scan_inputs = 1, directions = [0, 0], body = body (float[2] x) => (float[2] y) { y = Relu(x) }>
         })"),
       "graph 'g', node 0 (Scan): attribute 'directions' lists 2 values but needs one per scan "
       "input (1)"},
  };
}

class InvalidModelTest : public ::testing::TestWithParam<InvalidCase> {};

TEST_P(InvalidModelTest, IsRejectedWithItsMessage) {
  const InvalidCase& c = GetParam();
  std::unique_ptr<ir::Model> model = Parse(c.text);
  ASSERT_NE(model, nullptr);
  if (c.tweak) c.tweak(*model);
  CheckResult result = Check(*model, c.options);
  EXPECT_FALSE(result.ok()) << "accepted:\n" << c.text;
  bool found = false;
  for (const std::string& e : result.errors)
    found = found || e.find(c.expected) != std::string::npos;
  EXPECT_TRUE(found) << "expected an error containing:\n  " << c.expected
                     << "\ngot errors:" << Joined(result.errors);
  EXPECT_FALSE(CheckModel(*model, c.options).ok());
}

INSTANTIATE_TEST_SUITE_P(Corpus, InvalidModelTest, ::testing::ValuesIn(InvalidCases()),
                         [](const auto& info) { return info.param.name; });

// --- Invalid tensors that the text syntax cannot spell
// ---------------------------------------------

std::vector<std::string> ErrorsWithInitializer(ir::Tensor t) {
  std::unique_ptr<ir::Model> m =
      Parse(absl::StrCat("<", kIr10, ">", "g (float[2] x) => (float[2] y) { y = Relu(x) }"));
  if (m == nullptr) return {};
  m->graph().AddInitializer(std::move(t));
  return Check(*m).errors;
}

TEST(TensorRules, DataSizeMustMatchDims) {
  ir::Tensor t = ir::Tensor::FromVector<float>(ir::DataType::kFloat, {3}, {1.0f, 2.0f});
  t.set_name("w");
  EXPECT_TRUE(Contains(Joined(ErrorsWithInitializer(std::move(t))),
                       "graph 'g': initializer 'w': holds 8 bytes of data but float[3] needs 12"));
}

TEST(TensorRules, UndefinedElementType) {
  ir::Tensor t(ir::DataType::kUndefined, {1});
  t.set_name("w");
  EXPECT_TRUE(
      Contains(Joined(ErrorsWithInitializer(std::move(t))),
               "graph 'g': initializer 'w': element type is UNDEFINED, which is not allowed"));
}

TEST(TensorRules, MissingData) {
  ir::Tensor t(ir::DataType::kInt64, {2});
  t.set_name("w");
  t.set_storage(ir::Tensor::Storage::kNone);
  EXPECT_TRUE(Contains(Joined(ErrorsWithInitializer(std::move(t))),
                       "graph 'g': initializer 'w': has 2 elements but no data"));
}

TEST(TensorRules, StringCountMustMatchDims) {
  ir::Tensor t(ir::DataType::kString, {2});
  t.set_name("w");
  t.mutable_strings() = {"a"};
  EXPECT_TRUE(Contains(Joined(ErrorsWithInitializer(std::move(t))),
                       "graph 'g': initializer 'w': holds 1 strings but dims [2] need 2"));
}

std::vector<std::string> ErrorsWithSparse(std::vector<int64_t> dims, std::vector<float> values,
                                          std::vector<int64_t> index_dims,
                                          std::vector<int64_t> indices) {
  std::unique_ptr<ir::Model> m =
      Parse(absl::StrCat("<", kIr10, ">", "g (float[2] x) => (float[2] y) { y = Relu(x) }"));
  if (m == nullptr) return {};
  ir::SparseTensor s;
  s.dims = std::move(dims);
  s.values = ir::Tensor::FromVector<float>(ir::DataType::kFloat,
                                           {static_cast<int64_t>(values.size())}, values);
  s.values.set_name("sp");
  s.indices = ir::Tensor::FromVector<int64_t>(ir::DataType::kInt64, std::move(index_dims), indices);
  m->graph().AddSparseInitializer("sp", std::move(s));
  return Check(*m).errors;
}

TEST(TensorRules, SparseIndicesMustBeSorted) {
  EXPECT_TRUE(Contains(
      Joined(ErrorsWithSparse({4}, {1, 2}, {2}, {3, 1})),
      "graph 'g': sparse initializer 'sp': indices are not in ascending order at position 1"));
}

TEST(TensorRules, SparseIndicesMustBeInRange) {
  EXPECT_TRUE(
      Contains(Joined(ErrorsWithSparse({2, 2}, {1, 2}, {2, 2}, {0, 1, 2, 0})),
               "graph 'g': sparse initializer 'sp': index [1,0] = 2 is out of range [0, 2)"));
}

TEST(TensorRules, ValidSparseInitializerPasses) {
  EXPECT_EQ(Joined(ErrorsWithSparse({2, 3}, {1, 2}, {2, 2}, {0, 1, 1, 2})), "(none)");
  EXPECT_EQ(Joined(ErrorsWithSparse({6}, {1, 2}, {2}, {1, 5})), "(none)");
}

// --- Warnings
// --------------------------------------------------------------------------------------

TEST(Warnings, RemovedExperimentalOpWarnsButPasses) {
  auto m =
      Parse(M(R"(ir_version: 3, opset_import: ["" : 8])",
              "g (float[1,3,2,2] x) => (float[1,3,2,2] y) { y = ImageScaler<scale = 2.0>(x) }"));
  ASSERT_NE(m, nullptr);
  CheckResult r = Check(*m);
  EXPECT_TRUE(r.ok()) << Joined(r.errors);
  EXPECT_TRUE(
      Contains(Joined(r.warnings),
               "graph 'g', node 0 (ImageScaler): ImageScaler is a removed experimental ONNX "
               "operator; it is not checked"));
}

TEST(Warnings, DuplicateNodeNamesWarn) {
  auto m = Parse(M(kIr8, "g (float[2] x) => (float[2] y) { [n] a = Relu(x) [n] y = Relu(a) }"));
  ASSERT_NE(m, nullptr);
  std::vector<std::string> warnings;
  EXPECT_TRUE(CheckModel(*m, {}, &warnings).ok());
  EXPECT_TRUE(Contains(Joined(warnings),
                       "graph 'g', node 1 'n' (Relu): node name 'n' is also used by node 0"));
}

TEST(Warnings, SubgraphInitializerThatIsAlsoAnInputWarns) {
  auto m = Parse(M(kIr8, R"(g (int64 n, bool c, float[2] x) => (float[2] y) {
      y = Loop(n, c, x) <body = body (int64 i, bool c_in, float[2] x_in, float[2] w = {1.0, 2.0}) => (bool c_out, float[2] x_out) {
        c_out = Identity(c_in)
        x_out = Add(x_in, w)
      }>
    })"));
  ASSERT_NE(m, nullptr);
  CheckResult r = Check(*m);
  EXPECT_TRUE(r.ok()) << Joined(r.errors);
  EXPECT_TRUE(
      Contains(Joined(r.warnings),
               "graph 'body' (attribute 'body' of graph 'g', node 0 (Loop)): initializer 'w' is "
               "also a subgraph input, which IR version >= 4 discourages"));
}

TEST(Warnings, OpsetNewerThanItsReleaseIrVersionWarnsButPasses) {
  // The release table is history, not a rule: ONNX's checker and onnxruntime load these.
  struct Case {
    std::string header, expected;
  };
  for (const Case& c :
       std::vector<Case>{{R"(ir_version: 3, opset_import: ["" : 9])",
                          "model: opset 9 of domain 'ai.onnx' was released with IR version 4, but "
                          "the model's ir_version is 3"},
                         {R"(ir_version: 7, opset_import: ["" : 18])",
                          "model: opset 18 of domain 'ai.onnx' was released with IR version 8, but "
                          "the model's ir_version is 7"},
                         {R"(ir_version: 8, opset_import: ["" : 13, "ai.onnx.ml" : 5])",
                          "model: opset 5 of domain 'ai.onnx.ml' was released with IR version 10, "
                          "but the model's ir_version is 8"}}) {
    auto m = Parse(M(c.header, "g (float[2] x) => (float[2] y) { y = Relu(x) }"));
    ASSERT_NE(m, nullptr);
    CheckResult r = Check(*m);
    EXPECT_TRUE(r.ok()) << c.header << Joined(r.errors);
    EXPECT_TRUE(Contains(Joined(r.warnings), c.expected));
  }
}

TEST(Warnings, OpsetNewerThanTheIrVersionWithoutItsNewTypesOnlyWarns) {
  // Opset 19 came with IR 9 and float8; an IR 8 model at opset 19 that uses no float8 loads in
  // onnxruntime, so it passes with the release-table warning.
  auto m = Parse(M(R"(ir_version: 8, opset_import: ["" : 19])",
                   "g (float[2] x) => (int32[2] y) { y = Cast<to = 6>(x) }"));
  ASSERT_NE(m, nullptr);
  CheckResult r = Check(*m);
  EXPECT_TRUE(r.ok()) << Joined(r.errors);
  EXPECT_TRUE(Contains(Joined(r.warnings),
                       "model: opset 19 of domain 'ai.onnx' was released with IR version 9"));
}

TEST(Warnings, LegacyBroadcastOfSizeOneDimsWarnsButPasses) {
  // "1-dim expansion doesn't work yet" (opset 6): exporters wrote it, ONNX's checker accepts it,
  // and it is read as numpy broadcasting.
  auto m = Parse(M(
      R"(ir_version: 3, opset_import: ["" : 6])",
      R"(g (float[2,3] a, float[2,1] b, float[3,1] c, float[2,3,4] d) => (float[2,3] y, float[2,3,4] z) {
      [add] y = Add<broadcast = 1>(a, b)
      z = Mul<broadcast = 1, axis = 1>(d, c)
    })"));
  ASSERT_NE(m, nullptr);
  CheckResult r = Check(*m);
  EXPECT_TRUE(r.ok()) << Joined(r.errors);
  EXPECT_TRUE(Contains(Joined(r.warnings),
                       "graph 'g', node 0 'add' (Add): B of shape [2,1] has size 1 where A of "
                       "shape [2,3] does not (axis 1)"));
  EXPECT_TRUE(Contains(Joined(r.warnings),
                       "graph 'g', node 1 (Mul): B of shape [3,1] has size 1 where A of shape "
                       "[2,3,4] does not (axis 2)"));
  // From opset 7 that is plain numpy broadcasting.
  auto m7 = Parse(M(R"(ir_version: 3, opset_import: ["" : 7])",
                    "g (float[2,3] a, float[2,1] b) => (float[2,3] y) { y = Add(a, b) }"));
  ASSERT_NE(m7, nullptr);
  EXPECT_EQ(Joined(Check(*m7).warnings), "(none)");
}

TEST(Warnings, OpsetWithinItsReleaseIrVersionDoesNotWarn) {
  auto m = Parse(M(R"(ir_version: 4, opset_import: ["" : 9])",
                   "g (float[2] x) => (float[2] y) { y = Relu(x) }"));
  ASSERT_NE(m, nullptr);
  CheckResult r = Check(*m);
  EXPECT_TRUE(r.ok()) << Joined(r.errors);
  EXPECT_EQ(Joined(r.warnings), "(none)");
}

TEST(Warnings, SameOpsetImportedTwiceWarnsButPasses) {
  auto m = Parse(M(R"(ir_version: 8, opset_import: ["" : 13, "ai.onnx" : 13])",
                   "g (float[2] x) => (float[2] y) { y = Relu(x) }"));
  ASSERT_NE(m, nullptr);
  CheckResult r = Check(*m);
  EXPECT_TRUE(r.ok()) << Joined(r.errors);
  EXPECT_TRUE(Contains(Joined(r.warnings),
                       "model: opset_import lists domain 'ai.onnx' twice (version 13 both times)"));
}

TEST(Warnings, CustomDomainOpsetZeroWarnsButPasses) {
  auto m = Parse(M(R"(ir_version: 8, opset_import: ["" : 13, "com.example" : 0])",
                   "g (float[2] x) => (float[2] y) { y = com.example.Foo(x) }"));
  ASSERT_NE(m, nullptr);
  CheckResult r = Check(*m);
  EXPECT_TRUE(r.ok()) << Joined(r.errors);
  EXPECT_TRUE(Contains(
      Joined(r.warnings),
      "model: imports opset 0 of domain 'com.example'; opset versions normally start at 1"));
}

TEST(Warnings, OnnxSequencesBeforeIr6AreStillErrors) {
  // Only ONNX-ML had them before IR 6.
  auto m = Parse(M(R"(ir_version: 5, opset_import: ["" : 10])",
                   "g (float[2] x) => (seq(float[2]) s) { s = com.example.Wrap(x) }"));
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(
      Contains(Joined(Check(*m).errors), "sequence types need IR version >= 6 (the model has 5)"));
}

// --- Reporting
// -------------------------------------------------------------------------------------

TEST(Reporting, CollectsEveryErrorAndStatusListsThem) {
  auto m = Parse(M(kIr8, "g (float[2] x) => (float[2] y) { a = Relu(x, x) y = Add(a) }"));
  ASSERT_NE(m, nullptr);
  CheckResult r = Check(*m);
  ASSERT_EQ(r.errors.size(), 2u) << Joined(r.errors);
  absl::Status s = r.status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(std::string(s.message()), "2 errors:\ngraph 'g', node 0 (Relu)"));
  EXPECT_TRUE(Contains(std::string(s.message()), "\ngraph 'g', node 1 (Add)"));
}

TEST(Reporting, MaxErrorsTruncates) {
  auto m = Parse(
      M(kIr8, "g (float[2] x) => (float[2] y) { a = Relu(x, x) b = Relu(a, a) y = Relu(b, b) }"));
  ASSERT_NE(m, nullptr);
  CheckOptions options;
  options.max_errors = 2;
  CheckResult r = Check(*m, options);
  EXPECT_EQ(r.errors.size(), 2u);
  EXPECT_TRUE(r.truncated);
  EXPECT_TRUE(Contains(std::string(r.status().message()), "(more errors not shown)"));
}

// --- Valid edge cases
// ------------------------------------------------------------------------------

struct ValidCase {
  std::string name;
  std::string text;
};

std::ostream& operator<<(std::ostream& os, const ValidCase& c) { return os << c.name; }

std::vector<ValidCase> ValidCases() {
  return {
      {"OmittedOptionalInputs",
       M(kIr8,
         R"(g (float[4] x, float hi, float[1,1,2,2] img, float[2] sc) => (float[4] y, float[1,1,4,4] r) {
           y = Clip(x, , hi)
           r = Resize<mode = "nearest">(img, , sc)
         })")},
      {"OmittedTrailingOptionalOutput",
       M(kIr8, "g (float[4] x) => (float[4] y) { y, = Dropout(x) }")},
      {"OmittedMiddleOptionalOutput",
       M(kIr8,
         "g (float[1,3,4] x, float[1,12,3] w, float[1,12,4] r) => (float[1,1,3] yh) { , yh = "
         "GRU<hidden_size = 4>(x, w, r) }")},
      {"ZeroSizedDims",
       M(kIr8, "g (float[0,3] x) => (float[0,3] y) <float[0] e = {}> { y = Relu(x) }")},
      {"ScalarOutputs",
       M(kIr8,
         "g (float[2,3] x) => (float y, int64 n) { y = ReduceSum<keepdims = 0>(x) n = Size(x) }")},
      {"SymbolicAndUnknownDims", M(kIr8, "g (float[N,?,3] x) => (float[N,?,3] y) { y = Relu(x) }")},
      {"UntypedIntermediatesAreNotGuessed",
       M(kIr8,
         "g (float[2] x) => (float[2] y) { a = Relu(x) b = Cast<to = 7>(a) c = Cast<to = 1>(b) y = "
         "Add(c, x) }")},
      {"OuterScopeReferencesInSubgraphs", M(kIr8, R"(g (bool c, float[2] x) => (float[2] y) {
           k = Relu(x)
           y = If(c) <then_branch = then_g () => (t) { t = Add(x, k) },
                      else_branch = else_g () => (e) {
                        e = If(c) <then_branch = inner_t () => (u) { u = Neg(k) },
                                   else_branch = inner_e () => (v) { v = Abs(x) }>
                      }>
         })")},
      {"LoopWithHeterogeneousCarriedValues",
       M(kIr8, R"(g (int64 n, bool cond, float[2] x, int64 k) => (float[2] xs, int64 ks) {
           xs, ks = Loop(n, cond, x, k) <body = body (int64 i, bool c_in, float[2] x_in, int64 k_in) => (bool c_out, float[2] x_out, int64 k_out) {
             c_out = Identity(c_in)
             x_out = Add(x_in, x)
             k_out = Add(k_in, i)
           }>
         })")},
      {"CustomDomainsAreNotCheckedBeyondStructure",
       M(R"(ir_version: 8, opset_import: ["" : 13, "com.example" : 1])",
         "g (float[2] x) => (float[2] y) { a = com.example.Anything<whatever = \"x\">(x, x, x) y = "
         "Relu(a) }")},
      {"MicrosoftDomainKnownOperator",
       M(R"(ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1])",
         "g (float[2,4] x, float[2,4] s, float[4] w) => (float[2,4] y) { y = "
         "com.microsoft.SkipLayerNormalization(x, s, w) }")},
      {"MicrosoftDomainOperatorsWithoutSchemaPassThrough",
       M(R"(ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1])",
         "g (float[2] x) => (float[2] y) { a = com.microsoft.QOrderedGelu<whatever = 1>(x, x) y = "
         "Relu(a) }")},
      // onnxruntime's model builder writes SimplifiedLayerNormalization in the default domain, and
      // onnxruntime loads it there.
      {"OnnxruntimeSimplifiedLayerNormalizationInTheDefaultDomain",
       M(R"(ir_version: 8, opset_import: ["" : 17])",
         "g (float[2,4] x, float[4] s) => (float[2,4] y) { y = "
         "SimplifiedLayerNormalization<epsilon = 1e-6>(x, s) }")},
      {"MicrosoftDomainNewerOpsetIsAccepted",
       M(R"(ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 2])",
         "g (float[2] x) => (float[2] y) { y = com.microsoft.Gelu(x) }")},
      {"MlDomain",
       M(R"(ir_version: 8, opset_import: ["" : 13, "ai.onnx.ml" : 3])",
         "g (float[2,3] x) => (float[2,3] y) { y = ai.onnx.ml.Binarizer<threshold = 0.5>(x) }")},
      {"SequenceTypes", M(kIr8,
                          "g (float[2] x, float[3] z) => (seq(float[?]) s, int64 n) { s = "
                          "SequenceConstruct(x, z) n = SequenceLength(s) }")},
      {"OptionalTypes", M(R"(ir_version: 8, opset_import: ["" : 15])",
                          "g (float[2] x) => (optional(float[2]) o, bool h) { o = Optional(x) h = "
                          "OptionalHasElement(o) }")},
      {"Ir3InitializersAreInputs",
       M(R"(ir_version: 3, opset_import: ["" : 8])",
         "g (float[2] x, float[2] w = {1.0, 2.0}) => (float[2] y) { y = Add(x, w) }")},
      {"Ir3ModelAtOpset9OnlyWarns",
       M(R"(ir_version: 3, opset_import: ["" : 9])",
         "g (float[2] x, float[2] w = {1.0, 2.0}) => (float[2] y) { y = Add(x, w) }")},
      {"Ir3SubgraphInitializersFollowTheInputsTheOperatorPasses",
       M(R"(ir_version: 3, opset_import: ["" : 8])",
         R"(g (int64 n, bool c, float[2] x) => (float[2] y, float[2] z) {
           y = Loop(n, c, x) <body = body (int64 i, bool c_in, float[2] x_in, float[2] w = {1.0, 2.0}) => (bool c_out, float[2] x_out) {
             c_out = Identity(c_in)
             x_out = Add(x_in, w)
           }>
           z = If(c) <then_branch = then_g (float[2] k = {3.0, 4.0}) => (float[2] t) { t = Add(x, k) },
                      else_branch = else_g () => (float[2] e) { e = Abs(x) }>
         })")},
      {"LoopWithCarriedValuesAndScanOutputs",
       M(kIr8, R"(g (int64 n, bool c, float[2] x) => (float[2] y, float[?,2] ys, int64[?] is) {
           y, ys, is = Loop(n, c, x) <body = body (int64 i, bool c_in, float[2] x_in) => (bool c_out, float[2] x_out, float[2] s, int64 t) {
             c_out = Identity(c_in)
             x_out = Relu(x_in)
             s = Identity(x_out)
             t = Identity(i)
           }>
         })")},
      {"LoopWithOmittedTripCountAndCondition", M(kIr8, R"(g (float[2] x) => (float[2] y) {
           y = Loop(, , x) <body = body (i, c_in, x_in) => (c_out, x_out) {
             c_out = Identity(c_in)
             x_out = Relu(x_in)
           }>
         })")},
      {"ScanWithStatesAndScanOutputs",
       M(kIr8, R"(g (float[2] h, float[5,2] xs, float[2,5] zs) => (float[2] hn, float[5,2] ys) {
           hn, ys = Scan(h, xs, zs)
               <num_scan_inputs = 2, scan_input_axes = [0, 1], scan_output_directions = [1], body = body (float[2] h_in, float[2] x, float[2] z) => (float[2] h_out, float[2] y) {
             s = Add(x, z)
             h_out = Add(h_in, s)
             y = Identity(h_out)
           }>
         })")},
      {"Scan8WithSequenceLens",
       M(R"(ir_version: 3, opset_import: ["" : 8])",
         R"(g (int64[1] lens, float[1,2] h, float[1,5,2] xs) => (float[1,2] hn, float[1,5,2] ys) {
           hn, ys = Scan(lens, h, xs) <num_scan_inputs = 1, directions = [1], body = body (float[2] h_in, float[2] x) => (float[2] h_out, float[2] y) {
             h_out = Add(h_in, x)
             y = Identity(h_out)
           }>
         })")},
      {"OnnxMlSequencesAndMapsBeforeIr6",
       M(R"(ir_version: 3, opset_import: ["" : 8, "ai.onnx.ml" : 1])",
         "g (float[1,2] p) => (seq(map(int64, float)) y) { y = "
         "ai.onnx.ml.ZipMap<classlabels_int64s = [0, 1]>(p) }")},
      {"Ir4InitializersNeedNotBeInputs",
       M(R"(ir_version: 4, opset_import: ["" : 9])",
         "g (float[2] x) => (float[2] y) <float[2] w = {1.0, 2.0}> { y = Add(x, w) }")},
      {"ExternalDataRelativeLocation",
       M(kIr8,
         R"(g (float[2] x) => (float[2] y) <float[2] w = ["location": "weights/w.bin", "offset": "64", "length": "8"]> { y = Add(x, w) })")},
      {"InternalAttributesAreIgnored",
       M(kIr8, "g (float[2] x) => (float[2] y) { y = Relu<__trace = 1>(x) }")},
      {"FunctionCallsWithAttributes",
       M(R"(ir_version: 9, opset_import: ["" : 13, "local" : 1])",
         R"(g (float[2] x) => (float[2] y) { a = local.f<alpha = 0.2>(x) y = local.f(a) }
            <domain: "local", opset_import: ["" : 13, "local" : 1]>
            f <alpha: float = 0.1> (p) => (q) { r = LeakyRelu<alpha: float = @alpha>(p) q = local.g(r) }
            <domain: "local", opset_import: ["" : 13]>
            g (p) => (q) { q = Relu(p) })")},
      {"FunctionOverloads",
       M(R"(ir_version: 10, opset_import: ["" : 13, "local" : 1])",
         R"(g (float[2] x) => (float[2] y) { a = local.f(x) y = local.f:neg(a) }
            <domain: "local", opset_import: ["" : 13]> f (p) => (q) { q = Relu(p) }
            <domain: "local", overload: "neg", opset_import: ["" : 13]> f (p) => (q) { q = Neg(p) })")},
      {"FunctionWithOtherOpsetWhereOpUnchanged",
       M(R"(ir_version: 8, opset_import: ["" : 13, "local" : 1])",
         R"(g (float[2] x) => (float[2] y) { y = local.f(x) }
            <domain: "local", opset_import: ["" : 14]> f (p) => (q) { q = Abs(p) })")},
      {"DefaultDomainSpelledAiOnnx", M(R"(ir_version: 8, opset_import: ["ai.onnx" : 13])",
                                       "g (float[2] x) => (float[2] y) { y = ai.onnx.Relu(x) }")},
      {"Float8AtIr9", M(R"(ir_version: 9, opset_import: ["" : 19])",
                        "g (float8e4m3fn[2] x) => (float[2] y) <float8e5m2[2] w = {1.0, 2.0}> { wf "
                        "= Cast<to = 1>(w) xf = Cast<to = 1>(x) y = Add(xf, wf) }")},
      {"Int4AtIr10", M(R"(ir_version: 10, opset_import: ["" : 21])",
                       "g (int4[2] x) => (float[2] y) { y = Cast<to = 1>(x) }")},
      {"NewestOpsetAndIrVersion", M(R"(ir_version: 13, opset_import: ["" : 28])",
                                    "g (float[2] x) => (float[2] y) { y = Relu(x) }")},
  };
}

class ValidModelTest : public ::testing::TestWithParam<ValidCase> {};

TEST_P(ValidModelTest, IsAccepted) {
  const ValidCase& c = GetParam();
  std::unique_ptr<ir::Model> model = Parse(c.text);
  ASSERT_NE(model, nullptr);
  CheckResult result = Check(*model);
  EXPECT_TRUE(result.ok()) << "errors:" << Joined(result.errors) << "\nin:\n" << c.text;
  EXPECT_TRUE(CheckModel(*model).ok());
}

INSTANTIATE_TEST_SUITE_P(Corpus, ValidModelTest, ::testing::ValuesIn(ValidCases()),
                         [](const auto& info) { return info.param.name; });

TEST(Options, ShapesOfMainGraphOutputsCanBeRelaxed) {
  auto m = Parse(M(kIr8, "g (float[2] x) => (float[] y) { y = Relu(x) }"));
  ASSERT_NE(m, nullptr);
  EXPECT_FALSE(Check(*m).ok());
  CheckOptions options;
  options.require_main_graph_shapes = false;
  EXPECT_TRUE(Check(*m, options).ok()) << Joined(Check(*m, options).errors);
}

TEST(Options, TypeConstraintChecksCanBeTurnedOff) {
  auto m = Parse(M(kIr8, "g (int32[2] x) => (int32[2] y) { y = Sqrt(x) }"));
  ASSERT_NE(m, nullptr);
  CheckOptions options;
  options.check_type_constraints = false;
  EXPECT_TRUE(Check(*m, options).ok());
}

}  // namespace
}  // namespace onnx_opt::schema::checker
