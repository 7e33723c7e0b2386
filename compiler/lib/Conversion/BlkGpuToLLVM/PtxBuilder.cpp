//===- PtxBuilder.cpp - one builder for every inline-PTX site -------------===//
#include "PtxBuilder.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Module.h"

namespace blk::gpu {

// Handles are "$o<k>" and "$i<k>" in the text until emit() numbers them.
static std::string outHandle(unsigned k) { return "$o" + std::to_string(k) + ";"; }
static std::string inHandle(unsigned k) { return "$i" + std::to_string(k) + ";"; }

std::string PtxBuilder::constraintFor(llvm::Type *type, const llvm::DataLayout &dl) {
  if (type->isPointerTy())
    return dl.getPointerSizeInBits(type->getPointerAddressSpace()) == 32 ? "r" : "l";
  if (type->isIntegerTy(1))
    return "b";
  if (type->isIntegerTy(16))
    return "h";
  if (type->isIntegerTy(64))
    return "l";
  if (type->isFloatTy())
    return "f";
  if (type->isDoubleTy())
    return "d";
  return "r";
}

const llvm::DataLayout &PtxBuilder::dataLayout() const {
  return b.GetInsertBlock()->getModule()->getDataLayout();
}

std::string PtxBuilder::output(llvm::Type *type) {
  outTypes.push_back(type);
  outCons.push_back("=" + constraintFor(type, dataLayout()));
  return outHandle(outTypes.size() - 1);
}

std::string PtxBuilder::input(llvm::Value *value) {
  inValues.push_back(value);
  inCons.push_back(constraintFor(value->getType(), dataLayout()));
  return inHandle(inValues.size() - 1);
}

std::string PtxBuilder::tiedInput(const std::string &outputHandle, llvm::Value *value) {
  // "$o<k>;" -> constraint "<k>": LLVM's tie to output operand k.
  inValues.push_back(value);
  inCons.push_back(outputHandle.substr(2, outputHandle.size() - 3));
  return inHandle(inValues.size() - 1);
}

std::string PtxBuilder::predicate(llvm::Value *pred) {
  inValues.push_back(pred);
  inCons.push_back("b");
  return inHandle(inValues.size() - 1);
}

PtxBuilder &PtxBuilder::line(const llvm::Twine &text) {
  lines.push_back(text.str());
  return *this;
}

PtxBuilder &PtxBuilder::clobberMemory() {
  memory = true;
  return *this;
}

/// Replaces the handles by LLVM's operand numbers: outputs, then inputs.
static std::string numberOperands(const std::string &text, unsigned numOutputs) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$' || i + 1 >= text.size() || (text[i + 1] != 'o' && text[i + 1] != 'i')) {
      out += text[i];
      continue;
    }
    size_t end = text.find(';', i);
    unsigned k = std::stoul(text.substr(i + 2, end - i - 2));
    out += "$" + std::to_string(text[i + 1] == 'o' ? k : numOutputs + k);
    i = end;
  }
  return out;
}

llvm::Value *PtxBuilder::emit(bool hasSideEffects) {
  std::string text;
  for (size_t i = 0; i < lines.size(); ++i)
    text += (i ? "\n\t" : "") + lines[i];
  text = numberOperands(text, outTypes.size());
  std::string cons;
  for (const std::string &c : outCons)
    cons += (cons.empty() ? "" : ",") + c;
  for (const std::string &c : inCons)
    cons += (cons.empty() ? "" : ",") + c;
  if (memory)
    cons += (cons.empty() ? "" : ",") + std::string("~{memory}");
  llvm::Type *retTy = b.getVoidTy();
  if (outTypes.size() == 1)
    retTy = outTypes[0];
  else if (outTypes.size() > 1)
    retTy = llvm::StructType::get(b.getContext(), outTypes);
  llvm::SmallVector<llvm::Type *> argTys;
  for (llvm::Value *v : inValues)
    argTys.push_back(v->getType());
  auto *fty = llvm::FunctionType::get(retTy, argTys, false);
  call = b.CreateCall(llvm::InlineAsm::get(fty, text, cons, hasSideEffects), inValues);
  return call;
}

void PtxBuilder::statement(llvm::IRBuilder<> &b, const llvm::Twine &text) {
  PtxBuilder ptx(b);
  ptx.line(text).clobberMemory();
  ptx.emit(/*hasSideEffects=*/true);
}

llvm::Value *PtxBuilder::result(unsigned i) {
  return outTypes.size() > 1 ? b.CreateExtractValue(call, i) : call;
}

} // namespace blk::gpu
