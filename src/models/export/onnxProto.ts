// The messages of onnx.proto (ONNX IR, github.com/onnx/onnx/blob/main/onnx/onnx.proto) that
// a model export writes, with the field numbers of the specification; no other message is
// declared. protobufjs encodes them, so a model file is the wire format every ONNX runtime reads.
import protobuf from 'protobufjs';

const ONNX_SUBSET = `
syntax = "proto3";
package onnx;
message AttributeProto {
  enum AttributeType { UNDEFINED = 0; FLOAT = 1; INT = 2; STRING = 3; TENSOR = 4; GRAPH = 5; FLOATS = 6; INTS = 7; STRINGS = 8; TENSORS = 9; GRAPHS = 10; }
  string name = 1;
  float f = 2;
  int64 i = 3;
  bytes s = 4;
  TensorProto t = 5;
  repeated float floats = 7;
  repeated int64 ints = 8;
  repeated bytes strings = 9;
  string doc_string = 13;
  AttributeType type = 20;
}
message ValueInfoProto {
  string name = 1;
  TypeProto type = 2;
  string doc_string = 3;
}
message NodeProto {
  repeated string input = 1;
  repeated string output = 2;
  string name = 3;
  string op_type = 4;
  repeated AttributeProto attribute = 5;
  string doc_string = 6;
  string domain = 7;
}
message StringStringEntryProto {
  string key = 1;
  string value = 2;
}
message OperatorSetIdProto {
  string domain = 1;
  int64 version = 2;
}
message ModelProto {
  int64 ir_version = 1;
  string producer_name = 2;
  string producer_version = 3;
  string domain = 4;
  int64 model_version = 5;
  string doc_string = 6;
  GraphProto graph = 7;
  repeated OperatorSetIdProto opset_import = 8;
  repeated StringStringEntryProto metadata_props = 14;
}
message GraphProto {
  repeated NodeProto node = 1;
  string name = 2;
  repeated TensorProto initializer = 5;
  string doc_string = 10;
  repeated ValueInfoProto input = 11;
  repeated ValueInfoProto output = 12;
}
message TensorProto {
  repeated int64 dims = 1;
  int32 data_type = 2;
  repeated float float_data = 4 [packed = true];
  repeated bytes string_data = 6;
  repeated int64 int64_data = 7 [packed = true];
  string name = 8;
  repeated double double_data = 10 [packed = true];
  string doc_string = 12;
}
message TensorShapeProto {
  message Dimension {
    oneof value {
      int64 dim_value = 1;
      string dim_param = 2;
    }
  }
  repeated Dimension dim = 1;
}
message TypeProto {
  message Tensor {
    int32 elem_type = 1;
    TensorShapeProto shape = 2;
  }
  oneof value {
    Tensor tensor_type = 1;
  }
}
`;

// keepCase: the field names stay those of onnx.proto (protobufjs would camel-case them).
const root = protobuf.parse(ONNX_SUBSET, { keepCase: true }).root;
const ModelProto = root.lookupType('onnx.ModelProto');
const AttributeType = root.lookupEnum('onnx.AttributeProto.AttributeType').values;

/** TensorProto.DataType values (onnx.proto). */
export const ELEM = { FLOAT: 1, INT64: 7, STRING: 8, DOUBLE: 11 } as const;

export interface Tensor { name: string; dims: number[]; data_type: number; double_data?: number[]; float_data?: number[]; int64_data?: number[]; string_data?: Uint8Array[] }
export interface Attribute { name: string; type: number; f?: number; i?: number; s?: Uint8Array; t?: Tensor; floats?: number[]; ints?: number[]; strings?: Uint8Array[] }
export interface OnnxNode { input: string[]; output: string[]; name: string; op_type: string; domain: string; attribute: Attribute[] }
export interface ValueInfo { name: string; type: { tensor_type: { elem_type: number; shape: { dim: Array<{ dim_value: number } | { dim_param: string }> } } }; doc_string?: string }
export interface Graph { name: string; node: OnnxNode[]; initializer: Tensor[]; input: ValueInfo[]; output: ValueInfo[]; doc_string?: string }
export interface Model {
  ir_version: number;
  producer_name: string;
  producer_version: string;
  doc_string: string;
  graph: Graph;
  opset_import: Array<{ domain: string; version: number }>;
  metadata_props: Array<{ key: string; value: string }>;
}

const utf8 = (s: string) => Buffer.from(s, 'utf8');
const T = AttributeType as Record<string, number>;

/** Attribute constructors, typed as AttributeProto.type requires. */
export const attr = {
  int: (name: string, i: number): Attribute => ({ name, type: T.INT!, i }),
  float: (name: string, f: number): Attribute => ({ name, type: T.FLOAT!, f }),
  string: (name: string, s: string): Attribute => ({ name, type: T.STRING!, s: utf8(s) }),
  ints: (name: string, ints: number[]): Attribute => ({ name, type: T.INTS!, ints }),
  floats: (name: string, floats: number[]): Attribute => ({ name, type: T.FLOATS!, floats }),
  strings: (name: string, strings: readonly string[]): Attribute => ({ name, type: T.STRINGS!, strings: strings.map(utf8) }),
  tensor: (name: string, t: Tensor): Attribute => ({ name, type: T.TENSOR!, t }),
};

export const doubles = (name: string, dims: number[], values: readonly number[]): Tensor => ({ name, dims, data_type: ELEM.DOUBLE, double_data: [...values] });
export const int64s = (name: string, dims: number[], values: readonly number[]): Tensor => ({ name, dims, data_type: ELEM.INT64, int64_data: [...values] });
export const strings = (name: string, dims: number[], values: readonly string[]): Tensor => ({ name, dims, data_type: ELEM.STRING, string_data: values.map(utf8) });

export function node(op: string, input: string[], output: string[], attribute: Attribute[] = [], domain = ''): OnnxNode {
  return { input, output, name: `${op}_${output[0]}`, op_type: op, domain, attribute };
}

/** A tensor input or output; a string dimension is symbolic (the batch size N). */
export function valueInfo(name: string, elemType: number, dims: Array<number | string>, doc?: string): ValueInfo {
  return { name, type: { tensor_type: { elem_type: elemType, shape: { dim: dims.map((d) => (typeof d === 'number' ? { dim_value: d } : { dim_param: d })) } } }, doc_string: doc };
}

export function encodeModel(model: Model): Buffer {
  return Buffer.from(ModelProto.encode(ModelProto.fromObject(model)).finish());
}
