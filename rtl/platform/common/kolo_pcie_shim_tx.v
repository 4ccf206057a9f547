`default_nettype none
// kolo_pcie_shim_tx - vendor-neutral transmit half of the PCIe shims
// (docs/pcie-shims.md): turns kolo_pcie_ep's tx_tlp_* stream (header on the
// sop beat, 8 payload DWs per beat) into a stream of TLP DWs, LANES per beat,
// as a vendor block takes them: DW0 in lane 0 of the first beat, every beat
// full but the last (out_end = its last lane), one TLP per beat.
// Header DWs pass as spec values; payload DWs are byte-swapped when
// PAYLOAD_SWAP; QWORD_ALIGN inserts the Avalon-ST pad DW before a payload
// that starts off its address's qword position.
// MSI: the blocks send MSIs themselves, so the one-DW memory write that the
// core makes for an MSI (to cfg_msi_addr, which the wrapper sets to
// MSI_ADDR) is taken off the stream and becomes msi_valid with its data;
// it waits until every earlier TLP has left, and no later TLP leaves before
// msi_ready (the vendor's grant).
// Handshakes valid/ready. tx_tlp_ready is combinational from out_ready and
// tx_tlp_sop: a sop beat needs an empty buffer (after this cycle's output
// beat), a later beat room for 8 DWs. out_* come from registers.
module kolo_pcie_shim_tx #(
    parameter LANES = 4,                       // DWs per output beat: 4 or 8
    parameter QWORD_ALIGN = 0,
    parameter PAYLOAD_SWAP = 0,
    parameter [63:0] MSI_ADDR = 64'hFFFF_FFFF_FFFF_FFF0
) (
    input  wire                clk,
    input  wire                rst,
    input  wire                tx_tlp_valid,
    output wire                tx_tlp_ready,
    input  wire [127:0]        tx_tlp_hdr,
    input  wire [255:0]        tx_tlp_data,
    input  wire                tx_tlp_sop,
    input  wire                tx_tlp_eop,
    input  wire [7:0]          tx_tlp_dw_en,
    output wire                out_valid,
    input  wire                out_ready,
    output wire [32*LANES-1:0] out_data,
    output wire                out_sop,
    output wire                out_eop,
    output wire [3:0]          out_end,
    output reg                 msi_valid,
    input  wire                msi_ready,
    output reg  [31:0]         msi_data
);
  localparam integer LANES_I = LANES;
  localparam [4:0] L = LANES_I[4:0];
  reg [511:0] buf_q;
  reg [4:0]   cnt_q;     // DWs held
  reg         end_q;     // they include the TLP's last DW
  reg         sop_q;     // the next output beat is the TLP's first

  assign out_valid = (cnt_q >= L) || (end_q && cnt_q != 5'd0);
  assign out_eop = end_q && cnt_q <= L;
  assign out_end = out_eop ? cnt_q[3:0] - 4'd1 : L[3:0] - 4'd1;
  assign out_sop = sop_q;
  assign out_data = buf_q[32*LANES-1:0];
  wire out_fire = out_valid && out_ready;

  function [31:0] bswap(input [31:0] d);
    bswap = {d[7:0], d[15:8], d[23:16], d[31:24]};
  endfunction

  reg [4:0]   cnt_after, c, h, push_n, cnt_new;
  reg [511:0] buf_after, pushv, buf_new;
  reg [255:0] d;
  reg         end_after, pad, is_msi, can_take;
  reg [63:0]  addr;
  integer i, ca;
  always @* begin
    cnt_after = out_fire ? (out_eop ? 5'd0 : cnt_q - L) : cnt_q;
    buf_after = out_fire ? (out_eop ? 512'd0 : buf_q >> (32 * LANES)) : buf_q;
    end_after = end_q && !(out_fire && out_eop);
    c = 5'd0;
    for (i = 0; i < 8; i = i + 1) c = c + {4'd0, tx_tlp_dw_en[i]};
    // payload DWs, 0 where not enabled (the buffer is 0 above its count)
    for (i = 0; i < 8; i = i + 1)
      d[32*i +: 32] = !tx_tlp_dw_en[i] ? 32'd0 :
                      (PAYLOAD_SWAP != 0) ? bswap(tx_tlp_data[32*i +: 32]) : tx_tlp_data[32*i +: 32];
    h = tx_tlp_hdr[29] ? 5'd4 : 5'd3;
    pad = (QWORD_ALIGN != 0) && tx_tlp_hdr[30] && (tx_tlp_hdr[29] ? tx_tlp_hdr[98] : !tx_tlp_hdr[66]);
    addr = tx_tlp_hdr[29] ? {tx_tlp_hdr[95:64], tx_tlp_hdr[127:98], 2'b00} : {32'd0, tx_tlp_hdr[95:66], 2'b00};
    is_msi = tx_tlp_sop && tx_tlp_hdr[31:30] == 2'b01 && tx_tlp_hdr[28:24] == 5'd0 &&
             tx_tlp_hdr[9:0] == 10'd1 && addr == MSI_ADDR;
    // a sop beat goes into an empty buffer: header, pad, payload from DW 0
    pushv = {384'd0, tx_tlp_hdr[29] ? tx_tlp_hdr : {32'd0, tx_tlp_hdr[95:0]}};
    if (tx_tlp_hdr[29]) pushv[128 +: 288] = pad ? {d, 32'd0} : {32'd0, d};
    else pushv[96 +: 288] = pad ? {d, 32'd0} : {32'd0, d};
    // a later beat goes behind the cnt_after DWs held
    buf_new = buf_after;
    ca = {27'd0, cnt_after};
    for (i = 0; i < 16; i = i + 1)
      if (i >= ca && i < ca + 8) buf_new[32*i +: 32] = buf_new[32*i +: 32] | d[32*(i - ca) +: 32];
    if (tx_tlp_sop) begin
      push_n = h + {4'd0, pad} + c;
      can_take = cnt_after == 5'd0 && !msi_valid;
    end else begin
      push_n = c;
      can_take = cnt_after <= 5'd8;
    end
    cnt_new = cnt_after + push_n;
  end
  assign tx_tlp_ready = can_take;
  wire take = tx_tlp_valid && can_take;

  always @(posedge clk) begin
    if (rst) begin
      buf_q <= 512'd0;
      cnt_q <= 5'd0;
      end_q <= 1'b0;
      sop_q <= 1'b0;
      msi_valid <= 1'b0;
      msi_data <= 32'd0;
    end else begin
      if (msi_valid && msi_ready) msi_valid <= 1'b0;
      if (take && is_msi) begin
        msi_valid <= 1'b1;
        msi_data <= tx_tlp_data[31:0];
        buf_q <= buf_after;
        cnt_q <= cnt_after;
        end_q <= end_after;
      end else if (take) begin
        buf_q <= tx_tlp_sop ? pushv : buf_new;
        cnt_q <= cnt_new;
        end_q <= end_after || tx_tlp_eop;
      end else begin
        buf_q <= buf_after;
        cnt_q <= cnt_after;
        end_q <= end_after;
      end
      if (take && tx_tlp_sop && !is_msi) sop_q <= 1'b1;
      else if (out_fire) sop_q <= 1'b0;
    end
  end
endmodule
`default_nettype wire
