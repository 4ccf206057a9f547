`default_nettype none
// kolo_pcie_dma_wr - DMA write engine of the PCIe endpoint core: turns the
// user's write requests (byte streams) into memory write TLPs.
//
// Request: dma_wr_valid/ready with _addr, _len (1..4096 bytes) and ceil(len/32)
// beats of _data, byte 0 (the byte for _addr) in bits 7:0 of the first beat;
// _addr and _len are read on the first beat, _last is not looked at (the beat
// count follows from _len). The request is cut into TLPs at max-payload-size
// aligned addresses (cfg_max_payload, 128..4096 bytes, which also keeps
// every TLP inside a 4 KB page); each TLP is one MWr (3-DW header below
// 4 GB, else 4-DW) whose payload is realigned to the DW grid, with first and
// last byte enables for the partial DWs.
// Realignment: output beat j of a TLP is the 32 input bytes from byte index
// S = e + 32 j (e: the request byte index of the TLP's first payload DW,
// negative for a start that is not DW-aligned), taken from a two-beat window:
// the input beat held in `lo` and the input beat on the port (used, not yet
// taken). The port beat is taken when the window moves past `lo`.
// A request is latched (not yet taken) when dma_wr_valid is seen while idle
// and `hold` is low; its first beat is taken the cycle after at the earliest.
// `pending` is high from then until the last TLP beat has left the output
// register: the arbiter lets nothing else pass a write that was accepted.
// Without cfg_bus_master the request's beats are taken and dropped.
// Output: one TLP beat per handshake (out_*), registered, held while !ready.
// Timing (issue 21, <= 6 LUT levels): cfg_max_payload is registered (a
// change applies a cycle later); the first TLP's size, Length and byte
// enables are computed from the port as two candidates side by side (the
// request's length, the bytes to the mps boundary) and one is picked; the
// next TLP's fields are computed from the current one's in two registered
// steps while its beats go out, so the last beat of a TLP that is not the
// request's last waits until they are ready: two cycles after the TLP's
// fields were loaded (only a TLP of one or two beats ever waits: the first
// of a request that starts within 64 bytes of an mps boundary).
// The beats of a request must arrive without depending on anything the
// endpoint core does meanwhile (see docs/ni.md 6).
module kolo_pcie_dma_wr (
    input  wire         clk,
    input  wire         rst,
    input  wire [15:0]  cfg_req_id,
    input  wire [2:0]   cfg_max_payload,
    input  wire         cfg_bus_master,
    input  wire         hold,           // do not start a new request
    output wire         pending,        // a request is latched or a beat is in the output
    output wire         start,          // a request is latched this cycle
    // user write requests
    input  wire         dma_wr_valid,
    output reg          dma_wr_ready,
    input  wire [63:0]  dma_wr_addr,
    input  wire [12:0]  dma_wr_len,
    input  wire [255:0] dma_wr_data,
    input  wire         dma_wr_last,
    // TLPs to the arbiter
    output reg          out_valid,
    input  wire         out_ready,
    output reg  [127:0] out_hdr,
    output reg  [255:0] out_data,
    output reg          out_sop,
    output reg          out_eop,
    output reg  [7:0]   out_dw_en
);
  reg        busy;
  reg        drop;        // bus mastering off: swallow the beats
  reg [8:0]  drop_left;
  reg [12:0] r_mps;       // max payload size in bytes, taken at the request's start
  reg [12:0] c_mps, c_mps_m1;   // cfg_max_payload in bytes (and - 1), registered
  // the current TLP (registered: computed when the previous one ends)
  reg [63:0] r_addr;      // address of its first byte
  reg [12:0] r_rem;       // bytes of the request from r_addr on
  reg [12:0] p_n;         // its bytes
  reg [10:0] p_ldw;       // its Length (1..1024)
  reg [3:0]  p_fbe, p_lbe;
  reg        p_use4;
  reg        p_final;     // the request's last TLP
  reg [13:0] p_u_end;     // window index of the byte after it
  reg [10:0] dw_left;     // its payload DWs from the next beat on
  reg        p_sop;       // the next beat is its first
  reg [13:0] u_cur;       // window index of the next output beat's first byte
  reg [255:0] lo;         // input beat with window index lo_b (index 0: before the request)
  reg [8:0]  lo_b;

  // Length and byte enables of a TLP of n bytes (n >= 1) starting at byte a1
  // of a DW (span = a1 + n + 3, Length = span / 4)
  function [18:0] tlp_be(input [1:0] a1, input [1:0] n1, input [10:0] ldw);  // n1 = n mod 4
    reg [1:0] last_off;
    reg [3:0] fm, lm;
    begin
      last_off = a1 + n1 - 2'd1;
      fm = 4'hF << a1;
      lm = 4'hF >> (2'd3 - last_off);
      if (ldw == 11'd1) tlp_be = {ldw, fm & lm, 4'd0};
      else tlp_be = {ldw, fm, lm};
    end
  endfunction

  // the first TLP of a request, from the port: either the whole request
  // (f_lt) or the bytes to the next mps boundary, both candidates computed
  // side by side (Length of the second: its span ends on the boundary)
  wire [12:0] mps = 13'd128 << ((cfg_max_payload > 3'd5) ? 3'd0 : cfg_max_payload);
  wire [1:0]  f_a = dma_wr_addr[1:0];
  wire [12:0] f_off = {1'b0, dma_wr_addr[11:0]} & c_mps_m1;
  wire [12:0] f_to_bound = c_mps - f_off;
  wire        f_lt = dma_wr_len < f_to_bound;
  wire        f_final = !(f_to_bound < dma_wr_len);
  wire [12:0] f_n = f_lt ? dma_wr_len : f_to_bound;
  wire [12:0] f_span_len = {11'd0, f_a} + dma_wr_len + 13'd3;
  wire [10:0] f_ldw_tb = c_mps[12:2] - f_off[12:2];
  wire [18:0] f_be_len = tlp_be(f_a, dma_wr_len[1:0], f_span_len[12:2]);
  wire [18:0] f_be_tb = tlp_be(f_a, f_to_bound[1:0], f_ldw_tb);
  wire [18:0] f_be = f_lt ? f_be_len : f_be_tb;
  wire [13:0] f_u_end = f_lt ? {1'b0, dma_wr_len} + 14'd32 : {1'b0, f_to_bound} + 14'd32;
  // the next TLP, from the current one (it starts at an mps boundary), in
  // two registered steps: n1_* the cycle after the current TLP's fields
  // were loaded, nx_* the cycle after that (p_age counts those cycles)
  reg  [1:0]  p_age;
  reg  [12:0] n1_rem;
  reg  [63:0] n1_addr;
  reg  [12:0] nx_rem, nx_n;
  reg  [63:0] nx_addr;
  reg  [18:0] nx_be;
  reg         nx_use4, nx_final;
  reg  [13:0] nx_u_end;
  wire        n1_lt = n1_rem < r_mps;
  wire [12:0] n1_n = n1_lt ? n1_rem : r_mps;
  wire [12:0] n1_span = n1_rem + 13'd3;
  wire [18:0] n1_be = n1_lt ? tlp_be(2'b00, n1_rem[1:0], n1_span[12:2])
                            : tlp_be(2'b00, 2'b00, r_mps[12:2]);
  always @(posedge clk) begin
    n1_rem <= r_rem - p_n;
    n1_addr <= r_addr + {51'd0, p_n};
    nx_rem <= n1_rem;
    nx_n <= n1_n;
    nx_addr <= n1_addr;
    nx_be <= n1_be;
    nx_use4 <= (n1_addr[63:32] != 32'd0);
    nx_final <= !(r_mps < n1_rem);
    nx_u_end <= p_u_end + {1'b0, n1_n};
  end
  wire nx_ok = (p_age == 2'd2);

  wire [31:0] h0 = {1'b0, 1'b1, p_use4, 5'b00000, 14'd0, p_ldw[9:0]};
  wire [31:0] h1 = {cfg_req_id, 8'd0, p_lbe, p_fbe};
  wire [127:0] hdr = p_use4 ? {r_addr[31:2], 2'b00, r_addr[63:32], h1, h0}
                            : {32'd0, r_addr[31:2], 2'b00, h1, h0};
  wire t_eop = (dw_left <= 11'd8);
  wire [7:0] dw_en = t_eop ? ((dw_left[3] ? 8'h00 : (8'd1 << dw_left[2:0])) - 8'd1) : 8'hFF;

  // window: output beat = the 32 bytes from window index u_cur, out of the
  // input beat in lo (index lo_b) and the one on the port (index lo_b + 1)
  wire [8:0] ml = u_cur[13:5];
  wire [8:0] ml1 = ml + 9'd1;
  wire need_hi = (u_cur[4:0] != 5'd0) && (p_u_end > {ml1, 5'd0});
  wire [511:0] win = {dma_wr_data, lo};
  wire [255:0] sel = win[{1'b0, u_cur[4:0], 3'b000} +: 256];

  wire out_free = !out_valid || out_ready;
  wire advance = busy && !drop && (ml != lo_b);                  // load lo first
  wire can_emit = busy && !drop && (ml == lo_b) && out_free && (!need_hi || dma_wr_valid) &&
                  (!t_eop || p_final || nx_ok);
  // after the beat the window moves on by 32 bytes, or to the next TLP's
  // first byte (the byte after this TLP); take the port beat if it moves past lo
  wire emit_take = can_emit && (!t_eop || (p_final ? need_hi : (p_u_end[13:5] != lo_b)));
  wire take = (advance && dma_wr_valid) || (emit_take && dma_wr_valid) || (busy && drop);

  assign pending = busy || out_valid;
  assign start = !busy && dma_wr_valid && !hold;

  always @(*) dma_wr_ready = take;

  always @(posedge clk) begin
    if (rst) begin
      busy <= 1'b0;
      drop <= 1'b0;
      drop_left <= 9'd0;
      r_mps <= 13'd128;
      c_mps <= 13'd128;
      c_mps_m1 <= 13'd127;
      p_age <= 2'd0;
      r_addr <= 64'd0;
      r_rem <= 13'd0;
      p_n <= 13'd0;
      p_ldw <= 11'd1;
      p_fbe <= 4'd0;
      p_lbe <= 4'd0;
      p_use4 <= 1'b0;
      p_final <= 1'b0;
      p_u_end <= 14'd0;
      dw_left <= 11'd0;
      p_sop <= 1'b0;
      u_cur <= 14'd0;
      lo <= 256'd0;
      lo_b <= 9'd0;
      out_valid <= 1'b0;
      out_hdr <= 128'd0;
      out_data <= 256'd0;
      out_sop <= 1'b0;
      out_eop <= 1'b0;
      out_dw_en <= 8'd0;
    end else begin
      if (out_valid && out_ready) out_valid <= 1'b0;
      c_mps <= mps;
      c_mps_m1 <= mps - 13'd1;
      if (p_age != 2'd2) p_age <= p_age + 2'd1;
      if (start) begin
        busy <= 1'b1;
        drop <= !cfg_bus_master;
        drop_left <= dma_wr_len[12:5] + {8'd0, dma_wr_len[4:0] != 5'd0};
        r_mps <= c_mps;
        r_addr <= dma_wr_addr;
        r_rem <= dma_wr_len;
        p_n <= f_n;
        {p_ldw, p_fbe, p_lbe} <= f_be;
        p_use4 <= (dma_wr_addr[63:32] != 32'd0);
        p_final <= f_final;
        p_u_end <= f_u_end;
        p_age <= 2'd0;
        dw_left <= f_be[18:8];
        p_sop <= 1'b1;
        u_cur <= 14'd32 - {12'd0, dma_wr_addr[1:0]};
        lo_b <= 9'd0;
      end
      if (busy && drop && dma_wr_valid) begin
        drop_left <= drop_left - 9'd1;
        if (drop_left == 9'd1) busy <= 1'b0;
      end
      if (take && !drop) begin
        lo <= dma_wr_data;
        lo_b <= lo_b + 9'd1;
      end
      if (can_emit) begin
        out_valid <= 1'b1;
        out_hdr <= hdr;
        out_data <= sel;
        out_sop <= p_sop;
        out_eop <= t_eop;
        out_dw_en <= dw_en;
        p_sop <= t_eop;
        if (!t_eop) begin
          u_cur <= u_cur + 14'd32;
          dw_left <= dw_left - 11'd8;
        end else if (p_final) begin
          busy <= 1'b0;
        end else begin
          r_addr <= nx_addr;
          r_rem <= nx_rem;
          p_n <= nx_n;
          {p_ldw, p_fbe, p_lbe} <= nx_be;
          p_use4 <= nx_use4;
          p_final <= nx_final;
          p_u_end <= nx_u_end;
          p_age <= 2'd0;
          dw_left <= nx_be[18:8];
          u_cur <= p_u_end;
        end
      end
    end
  end

  wire unused_wr = &{1'b0, dma_wr_last, u_cur[13], ml1[8], p_ldw[10], f_span_len[1:0], n1_span[1:0],
                     f_off[1:0]};

`ifdef FORMAL
  reg f_rst_seen = 1'b0;
  always @(posedge clk) if (rst) f_rst_seen <= 1'b1;
  always @(*) begin
    if (f_rst_seen && busy && !drop) begin
      assert(lo_b <= ml);          // the window never runs ahead of the TLP
      assert(p_ldw != 11'd0 && p_ldw <= 11'd1024);
      assert(dw_left != 11'd0);
    end
  end
`endif
endmodule
`default_nettype wire
