`default_nettype none
// kolo_pcie_shim_rx - vendor-neutral receive half of the PCIe shims
// (docs/pcie-shims.md): turns a stream of TLP DWs, LANES per beat as a
// vendor block delivers them, into kolo_pcie_ep's rx_tlp_* stream (header
// DW0..3 on the sop beat, 8 payload DWs per beat, payload DW0 in lane 0).
//
// Input: one segment per beat: lanes in_start..in_end of in_data hold
// consecutive DWs of one TLP; in_sof marks a segment whose first DW is the
// TLP's DW0 (in_start may be > 0 only then), in_eof one that holds its last
// DW. Header DWs are spec values (Fmt in bits 31:29 of DW0). Payload DWs
// are byte-swapped first when PAYLOAD_SWAP (the block gives byte 0 in
// bits 31:24). QWORD_ALIGN: a TLP with data has one pad DW between header
// and payload when needed to put the payload on its address's qword
// position (Avalon-ST); it is dropped. Payload DWs past Length are dropped
// (the garbage DW of a half-used last qword), so are DWs after the eop beat
// went out. in_bar (with sof): 01 the request hit the block's BAR0, 10 its
// BAR2; the address of such a memory request is moved into the window
// BARn_BASE .. + 2^BARn_SIZE_LOG2, which the wrapper gives the core as its
// BAR bases (the blocks decode BARs but do not export their values).
// Handshakes valid/ready. in_ready = output register free (not looking at
// in_valid); the output (rx_tlp_*) is registered. A beat that completes a
// TLP whose last output beat does not fit takes one more cycle (flush).
module kolo_pcie_shim_rx #(
    parameter LANES = 4,                  // DWs per input beat: 4 or 8
    parameter QWORD_ALIGN = 0,
    parameter PAYLOAD_SWAP = 0,
    parameter BAR0_SIZE_LOG2 = 17,
    parameter BAR2_SIZE_LOG2 = 16,
    parameter [31:0] BAR0_BASE = 32'h8000_0000,
    parameter [31:0] BAR2_BASE = 32'hC000_0000
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire                  in_valid,
    output wire                  in_ready,
    input  wire [32*LANES-1:0]   in_data,
    input  wire                  in_sof,
    input  wire                  in_eof,
    input  wire [3:0]            in_start,
    input  wire [3:0]            in_end,
    input  wire [1:0]            in_bar,
    output reg                   rx_tlp_valid,
    input  wire                  rx_tlp_ready,
    output reg  [127:0]          rx_tlp_hdr,
    output reg  [255:0]          rx_tlp_data,
    output reg                   rx_tlp_sop,
    output reg                   rx_tlp_eop,
    output reg  [7:0]            rx_tlp_dw_en
);
  // state of the TLP being received
  reg [127:0] hdr_q;
  reg [2:0]   hcnt_q;     // header DWs collected
  reg         h4_q;
  reg         done_q;     // its eop beat went out: drop the rest up to eof
  reg         pad_q;      // a pad DW still to drop
  reg [10:0]  rem_q;      // payload DWs still to take
  reg [1:0]   bar_q;
  reg         first_q;    // the next output beat is the sop beat
  reg [223:0] acc_q;      // payload DWs not yet sent (at most 7; 0 above acnt_q)
  reg [4:0]   acnt_q;
  reg         flush_q;    // acc_q holds the TLP's last (partial) beat

  wire o_free = !rx_tlp_valid || rx_tlp_ready;
  assign in_ready = o_free && !flush_q;
  wire fire = in_valid && in_ready;

  function [31:0] bswap(input [31:0] d);
    bswap = {d[7:0], d[15:8], d[23:16], d[31:24]};
  endfunction
  function [7:0] dw_mask(input [4:0] n);
    dw_mask = (n >= 5'd8) ? 8'hFF : (8'hFF >> (5'd8 - n));
  endfunction

  // ---- one segment ------------------------------------------------------------------
  reg [32*LANES-1:0] seg, payv;
  reg [4:0]   n, hc, hlen, need, hn, r, m, total, t, sel;
  reg         h4, hfull, pad, p, has_data, done, end_now, emit_full, emit;
  reg [127:0] hdr_new, hdr_out;
  reg [10:0]  rem, rem_new;
  reg [479:0] acc_new;    // up to 7 + LANES DWs
  reg [31:0]  w;
  reg [63:0]  a_old, a_new;
  integer i, k, hci, hni, acn;
  always @* begin
    seg = in_data >> (32 * in_start);
    n = {1'b0, in_end} - {1'b0, in_start} + 5'd1;
    hc = in_sof ? 5'd0 : {2'b0, hcnt_q};
    h4 = in_sof ? seg[29] : h4_q;
    hlen = h4 ? 5'd4 : 5'd3;
    need = (hc >= hlen) ? 5'd0 : hlen - hc;
    hn = (n < need) ? n : need;
    hdr_new = in_sof ? 128'd0 : hdr_q;
    hci = {27'd0, hc};
    hni = {27'd0, hn};
    for (i = 0; i < 4; i = i + 1)
      if (i >= hci && i < hci + hni) hdr_new[32*i +: 32] = seg[32*(i - hci) +: 32];
    if (!h4) hdr_new[127:96] = 32'd0;
    hfull = (hc + hn == hlen);
    has_data = hdr_new[30];
    // the header completes in this segment: set up payload length and pad
    if (hfull && hc < hlen) begin
      rem = has_data ? {(hdr_new[9:0] == 10'd0), hdr_new[9:0]} : 11'd0;
      pad = (QWORD_ALIGN != 0) && has_data && (h4 ? hdr_new[98] : !hdr_new[66]);
    end else begin
      rem = rem_q;
      pad = pad_q;
    end
    r = n - hn;
    p = hfull && pad && (r != 5'd0);
    m = r - {4'd0, p};
    if (!hfull) m = 5'd0;
    if ({6'd0, m} > rem) m = rem[4:0];
    // the segment's payload DWs, from lane t on, to payv lanes 0..m-1
    t = {1'b0, in_start} + hn + {4'd0, p};
    for (k = 0; k < LANES; k = k + 1) begin
      sel = t + k[4:0];
      w = ({27'd0, sel} < LANES) ? in_data[32*sel +: 32] : 32'd0;
      payv[32*k +: 32] = (k < {27'd0, m}) ? ((PAYLOAD_SWAP != 0) ? bswap(w) : w) : 32'd0;
    end
    // appended behind the acnt_q DWs held
    acc_new = {256'd0, acc_q};
    acn = {27'd0, acnt_q};
    for (i = 0; i < 15; i = i + 1)
      if (i >= acn && i < acn + LANES) acc_new[32*i +: 32] = acc_new[32*i +: 32] | payv[32*(i - acn) +: 32];
    total = acnt_q + m;
    rem_new = rem - {6'd0, m};
    done = done_q && !in_sof;
    end_now = !done && (in_eof || (hfull && rem_new == 11'd0));
    emit_full = !done && hfull && total >= 5'd8;
    emit = emit_full || end_now;
    // a memory request that hit a BAR: its address moves into the BAR's window
    hdr_out = hdr_new;
    a_old = h4 ? {hdr_new[95:64], hdr_new[127:96]} : {32'd0, hdr_new[95:64]};
    a_new = a_old;
    if (in_sof ? in_bar[0] : bar_q[0]) a_new = {32'd0, BAR0_BASE} | (a_old & ((64'd1 << BAR0_SIZE_LOG2) - 64'd1));
    if (in_sof ? in_bar[1] : bar_q[1]) a_new = {32'd0, BAR2_BASE} | (a_old & ((64'd1 << BAR2_SIZE_LOG2) - 64'd1));
    if (!hdr_new[31] && hdr_new[28:25] == 4'd0) begin  // MRd, MWr, MRdLk
      if (h4) hdr_out[127:64] = {a_new[31:0], a_new[63:32]};
      else hdr_out[95:64] = a_new[31:0];
    end
  end

  always @(posedge clk) begin
    if (rst) begin
      hdr_q <= 128'd0;
      hcnt_q <= 3'd0;
      h4_q <= 1'b0;
      done_q <= 1'b0;
      pad_q <= 1'b0;
      rem_q <= 11'd0;
      bar_q <= 2'd0;
      first_q <= 1'b0;
      acc_q <= 224'd0;
      acnt_q <= 5'd0;
      flush_q <= 1'b0;
      rx_tlp_valid <= 1'b0;
      rx_tlp_hdr <= 128'd0;
      rx_tlp_data <= 256'd0;
      rx_tlp_sop <= 1'b0;
      rx_tlp_eop <= 1'b0;
      rx_tlp_dw_en <= 8'd0;
    end else begin
      if (rx_tlp_valid && rx_tlp_ready) rx_tlp_valid <= 1'b0;
      if (flush_q && o_free) begin
        rx_tlp_valid <= 1'b1;
        rx_tlp_data <= {32'd0, acc_q};
        rx_tlp_sop <= 1'b0;
        rx_tlp_eop <= 1'b1;
        rx_tlp_dw_en <= dw_mask(acnt_q);
        acc_q <= 224'd0;
        acnt_q <= 5'd0;
        flush_q <= 1'b0;
      end
      if (fire) begin
        hdr_q <= hdr_new;
        hcnt_q <= hc[2:0] + hn[2:0];
        h4_q <= h4;
        rem_q <= rem_new;
        pad_q <= pad && !p;
        if (in_sof) bar_q <= in_bar;
        if (emit) begin
          rx_tlp_valid <= 1'b1;
          rx_tlp_hdr <= hdr_out;
          rx_tlp_data <= acc_new[255:0];
          rx_tlp_sop <= in_sof || first_q;
          rx_tlp_eop <= end_now && total <= 5'd8;
          rx_tlp_dw_en <= dw_mask(total);
          first_q <= 1'b0;
        end else if (in_sof) begin
          first_q <= 1'b1;
        end
        if (emit_full) begin
          acc_q <= acc_new[479:256];
          acnt_q <= total - 5'd8;
          flush_q <= end_now && total > 5'd8;
        end else if (end_now) begin
          acc_q <= 224'd0;
          acnt_q <= 5'd0;
        end else begin
          acc_q <= acc_new[223:0];
          acnt_q <= total;
        end
        if (in_eof) done_q <= 1'b0;
        else if (end_now) done_q <= 1'b1;
      end
    end
  end
endmodule
`default_nettype wire
