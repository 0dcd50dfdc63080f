//aitools:inline executors

package aitools

import (
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/types/known/anypb"
)

// badRequestViolations reads the field violations of the google.rpc.BadRequest
// details of a status, reason "server": the field as the server wrote it
// and its description. The message is read from its wire form
// (field_violations = 1; each field = 1, description = 2), so that the file
// needs no import beyond grpc and protobuf.
func badRequestViolations(details []*anypb.Any) []Violation {
	var out []Violation
	for _, d := range details {
		if url := d.GetTypeUrl(); url != "google.rpc.BadRequest" && !strings.HasSuffix(url, "/google.rpc.BadRequest") {
			continue
		}
		eachField(d.GetValue(), func(num protowire.Number, v []byte) {
			if num != 1 {
				return
			}
			var fv Violation
			fv.Reason = "server"
			eachField(v, func(num protowire.Number, s []byte) {
				switch num {
				case 1:
					fv.Field = string(s)
				case 2:
					fv.Message = string(s)
				}
			})
			out = append(out, fv)
		})
	}
	return out
}

// eachField calls each with the number and bytes of every length-delimited
// field of a message's wire form, skipping the others; it stops at the
// first malformed byte.
func eachField(b []byte, each func(protowire.Number, []byte)) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return
		}
		b = b[n:]
		if typ == protowire.BytesType {
			v, m := protowire.ConsumeBytes(b)
			if m < 0 {
				return
			}
			each(num, v)
			b = b[m:]
			continue
		}
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return
		}
		b = b[m:]
	}
}
