//aitools:inline connect

package aitools

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/anypb"
)

// The calls of ForwardToConnect...Client (generated with go_connect=true,
// docs/go.md, "Forwarding to a connect-go client"): a method of a
// connect-go client made to look like the gRPC client's, so that the call
// runs through mcpUnary and mcpStream like ForwardTo...Client's.

// connectUnary is the unary method call of a connect-go client as a gRPC
// client method: the outgoing metadata of ctx (forwarded identity, trace
// context) become request headers, a *connect.Error a gRPC status.
func connectUnary[Req, Resp any](call func(context.Context, *connect.Request[Req]) (*connect.Response[Resp], error)) func(context.Context, *Req, ...grpc.CallOption) (*Resp, error) {
	return func(ctx context.Context, req *Req, _ ...grpc.CallOption) (*Resp, error) {
		r := connect.NewRequest(req)
		connectHeaders(ctx, r.Header())
		resp, err := call(ctx, r)
		if err != nil {
			return nil, connectStatus(err)
		}
		return resp.Msg, nil
	}
}

// connectStream is the server-streaming method call of a connect-go client
// as a gRPC client method, like connectUnary.
func connectStream[Req, Resp any](call func(context.Context, *connect.Request[Req]) (*connect.ServerStreamForClient[Resp], error)) func(context.Context, *Req, ...grpc.CallOption) (*connectReceiver[Resp], error) {
	return func(ctx context.Context, req *Req, _ ...grpc.CallOption) (*connectReceiver[Resp], error) {
		r := connect.NewRequest(req)
		connectHeaders(ctx, r.Header())
		stream, err := call(ctx, r)
		if err != nil {
			return nil, connectStatus(err)
		}
		return &connectReceiver[Resp]{stream: stream}, nil
	}
}

// connectReceiver reads a connect-go server stream as a gRPC client stream
// is read: Recv until io.EOF. The stream is closed when it ends, or by
// Close when the reader stops before (mcpStream calls it).
type connectReceiver[Resp any] struct {
	stream *connect.ServerStreamForClient[Resp]
	closed bool
}

// Recv returns the next message, io.EOF at the end, or the stream's error
// as a gRPC status.
func (c *connectReceiver[Resp]) Recv() (*Resp, error) {
	if c.stream.Receive() {
		return c.stream.Msg(), nil
	}
	err := c.stream.Err()
	_ = c.Close()
	if err != nil {
		return nil, connectStatus(err)
	}
	return nil, io.EOF
}

// Close closes the stream (once): connect-go asks its callers to close a
// stream they stop reading.
func (c *connectReceiver[Resp]) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	return c.stream.Close()
}

// connectHeaders adds the outgoing gRPC metadata of ctx to h; binary
// ("-bin") values are base64-encoded, as gRPC sends them.
func connectHeaders(ctx context.Context, h http.Header) {
	md, _ := metadata.FromOutgoingContext(ctx)
	for key, values := range md {
		for _, v := range values {
			if strings.HasSuffix(key, "-bin") {
				v = connect.EncodeBinaryHeader([]byte(v))
			}
			h.Add(key, v)
		}
	}
}

// connectStatus is a connect-go error as the gRPC status with the same
// code, message and details (connect's codes are gRPC's); another error is
// returned as it is.
func connectStatus(err error) error {
	var ce *connect.Error
	if !errors.As(err, &ce) {
		return err
	}
	p := status.New(codes.Code(ce.Code()), ce.Message()).Proto()
	for _, d := range ce.Details() {
		p.Details = append(p.Details, &anypb.Any{TypeUrl: "type.googleapis.com/" + d.Type(), Value: d.Bytes()})
	}
	return status.FromProto(p).Err()
}
