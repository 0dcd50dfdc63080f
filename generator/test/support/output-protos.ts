// Protos whose response types cover every kind of field, for the output
// schema tests (output-schema.test.ts, output-schema-encoders.test.ts).

/** Response types of every field kind (package t.v1). */
export const outputProto = `syntax = "proto3";
package t.v1;
import "ai/tools/v1/annotations.proto";
import "google/api/field_behavior.proto";
import "google/protobuf/empty.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/field_mask.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/any.proto";
import "google/protobuf/wrappers.proto";
option go_package = "example.com/t/v1;tv1";

service S {
  rpc Scalars(google.protobuf.Empty) returns (ScalarsOut) {
    option (ai.tools.v1.rpc_tool) = {name: "scalars", description: "d"};
    option idempotency_level = NO_SIDE_EFFECTS;
  }
  rpc Shapes(google.protobuf.Empty) returns (ShapesOut) {
    option (ai.tools.v1.rpc_tool) = {name: "shapes", description: "d"};
    option idempotency_level = IDEMPOTENT;
  }
  rpc Wkt(google.protobuf.Empty) returns (WktOut) {
    option (ai.tools.v1.rpc_tool) = {name: "wkt", description: "d"};
  }
  rpc Tree(google.protobuf.Empty) returns (Node) {
    option (ai.tools.v1.rpc_tool) = {name: "tree", description: "d"};
  }
  rpc Ping(google.protobuf.Empty) returns (google.protobuf.Empty) {
    option (ai.tools.v1.rpc_tool) = {name: "nothing", description: "d"};
  }
  rpc Now(google.protobuf.Empty) returns (google.protobuf.Timestamp) {
    option (ai.tools.v1.rpc_tool) = {name: "now", description: "d"};
  }
  rpc Watch(google.protobuf.Empty) returns (stream ShapesOut) {
    option (ai.tools.v1.rpc_tool) = {name: "watch", description: "d"};
  }
}

enum Color { COLOR_UNSPECIFIED = 0; RED = 1; }
message ScalarsOut {
  double d = 1; float f = 2; int32 i32 = 3; int64 i64 = 4; uint32 u32 = 5; uint64 u64 = 6;
  sint32 s32 = 7; sint64 s64 = 8; fixed32 f32 = 9; fixed64 f64 = 10; sfixed32 sf32 = 11;
  sfixed64 sf64 = 12; bool b = 13; string s = 14; bytes by = 15; Color color = 16;
}
message Inner { string name = 1; }
message ShapesOut {
  // The tags.
  repeated string tags = 1;
  Inner inner = 2;
  optional string nick = 3;
  map<string, Inner> by_name = 4;
  map<int64, string> by_num = 5;
  map<bool, int32> by_flag = 6;
  oneof pick { string a = 7; Inner b = 8; }
  string secret = 9 [(ai.tools.v1.tool_field).skip = true];
  string made = 10 [(google.api.field_behavior) = OUTPUT_ONLY];
  repeated Color colors = 11;
}
message WktOut {
  google.protobuf.Timestamp at = 1;
  google.protobuf.Duration ttl = 2;
  google.protobuf.FieldMask mask = 3;
  google.protobuf.Struct meta = 4;
  google.protobuf.Value value = 5;
  google.protobuf.ListValue list = 6;
  google.protobuf.Any any = 7;
  google.protobuf.Empty empty = 8;
  google.protobuf.Int64Value iv = 9;
  google.protobuf.UInt32Value uv = 10;
  google.protobuf.DoubleValue dv = 11;
  google.protobuf.BytesValue bv = 12;
  google.protobuf.NullValue nothing = 13;
}
message Node { string label = 1; repeated Node children = 2; Leaf leaf = 3; }
message Leaf { Node back = 1; }
`;

/** A proto2 file: closed enums, optional scalars (package t.v2). */
export const closedProto = `syntax = "proto2";
package t.v2;
import "ai/tools/v1/annotations.proto";
import "google/protobuf/empty.proto";
service S {
  rpc Get(google.protobuf.Empty) returns (Out) {
    option (ai.tools.v1.rpc_tool) = {name: "closed", description: "d"};
  }
}
enum Shade { DARK = 0; LIGHT = 1; }
message Out { optional Shade shade = 1; optional int32 n = 2; repeated int32 r = 3; }
`;

/** An editions file: explicit presence by default (package t.v3). */
export const editionsProto = `edition = "2023";
package t.v3;
import "ai/tools/v1/annotations.proto";
import "google/protobuf/empty.proto";
service S {
  rpc Get(google.protobuf.Empty) returns (Out) {
    option (ai.tools.v1.rpc_tool) = {name: "editions", description: "d"};
  }
}
enum Level { LEVEL_UNSPECIFIED = 0; HIGH = 1; }
message Out {
  int32 a = 1;
  int32 b = 2 [features.field_presence = IMPLICIT];
  repeated int32 c = 3;
  Level level = 4;
  string s = 5 [features.field_presence = IMPLICIT];
}
`;

/** Maps of every key type, recursion through maps, lists of WKTs (t.v4). */
export const edgeProto = `syntax = "proto3";
package t.v4;
import "ai/tools/v1/annotations.proto";
import "google/protobuf/any.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/empty.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";
service S {
  rpc Get(google.protobuf.Empty) returns (Edge) {
    option (ai.tools.v1.rpc_tool) = {name: "edge", description: "d"};
  }
  rpc Stream(google.protobuf.Empty) returns (stream google.protobuf.Duration) {
    option (ai.tools.v1.rpc_tool) = {name: "durations", description: "d"};
  }
  rpc Values(google.protobuf.Empty) returns (google.protobuf.Value) {
    option (ai.tools.v1.rpc_tool) = {name: "value", description: "d"};
  }
  rpc Count(google.protobuf.Empty) returns (google.protobuf.Int64Value) {
    option (ai.tools.v1.rpc_tool) = {name: "count", description: "d"};
  }
  rpc Anything(google.protobuf.Empty) returns (google.protobuf.Any) {
    option (ai.tools.v1.rpc_tool) = {name: "anything", description: "d"};
  }
}
enum Kind { KIND_UNSPECIFIED = 0; BIG = 1; SMALL = 2; }
message Edge {
  map<int32, Edge> by_i32 = 1;
  map<int64, string> by_i64 = 2;
  map<uint32, Kind> by_u32 = 3;
  map<uint64, bytes> by_u64 = 4;
  map<sint32, double> by_s32 = 5;
  map<sint64, float> by_s64 = 6;
  map<fixed32, bool> by_f32 = 7;
  map<fixed64, int64> by_f64 = 8;
  map<sfixed32, uint64> by_sf32 = 9;
  map<sfixed64, google.protobuf.Timestamp> by_sf64 = 10;
  map<bool, google.protobuf.Value> by_bool = 11;
  map<string, google.protobuf.Any> by_string = 12;
  repeated google.protobuf.Any anys = 13;
  repeated google.protobuf.Timestamp times = 14;
  repeated google.protobuf.NullValue nulls = 15;
  repeated google.protobuf.Int64Value counts = 16;
  repeated Kind kinds = 17;
  repeated bytes blobs = 18;
  repeated double ratios = 19;
  google.protobuf.Struct meta = 20;
  google.protobuf.ListValue list = 21;
  google.protobuf.FloatValue fv = 22;
  google.protobuf.UInt64Value u64v = 23;
  oneof choice {
    // A nested edge (a description beside a $ref).
    Edge child = 24;
    Kind kind = 25;
    google.protobuf.Duration wait = 26;
  }
  optional Kind maybe = 27;
}
`;
