`default_nettype none
// kolo_pcie_ep_cpl - completer of the PCIe endpoint core: answers the host's
// non-posted requests that kolo_pcie_ep_rx hands over (np_*), one at a time.
//  - user read (np_kind 0): one MMIO read on mmio_rd_* (4 or 8 bytes), then a
//    CplD with the data (Length 1 or 2 DWs: the DW(s) at the DW-aligned
//    address), or, when the response has _err, a Cpl with status CA.
//  - zero-length read (1): a CplD of one DW of zeros without a user access.
//  - unsupported request (2): a Cpl with status UR.
// Completion fields: completer id = cfg_req_id; requester id, tag (10 bits),
// TC and attributes copied from the request; byte count and lower address as
// rx computed them (memory reads: PCIe 2.3.1.1; others 4 and 0); CplLk/CplDLk
// for a locked read.
// Handshakes: np_ready is high only while idle (no other request in
// progress); mmio_rd_valid is held until mmio_rd_ready; mmio_rd_resp_ready is
// high while waiting for the response. The completion TLP (one beat, cpl_tlp_*)
// is held until cpl_tlp_ready.
module kolo_pcie_ep_cpl (
    input  wire         clk,
    input  wire         rst,
    input  wire [15:0]  cfg_req_id,
    // request from kolo_pcie_ep_rx
    input  wire         np_valid,
    output wire         np_ready,
    input  wire [1:0]   np_kind,
    input  wire [1:0]   np_bar,
    input  wire [31:0]  np_addr,
    input  wire [3:0]   np_len,
    input  wire [15:0]  np_req_id,
    input  wire [9:0]   np_tag,
    input  wire [2:0]   np_tc,
    input  wire [2:0]   np_attr,
    input  wire [6:0]   np_lower_addr,
    input  wire [11:0]  np_byte_count,
    input  wire         np_locked,
    // user MMIO read
    output reg          mmio_rd_valid,
    input  wire         mmio_rd_ready,
    output reg  [1:0]   mmio_rd_bar,
    output reg  [31:0]  mmio_rd_addr,
    output reg  [3:0]   mmio_rd_len,
    input  wire         mmio_rd_resp_valid,
    output wire         mmio_rd_resp_ready,
    input  wire [63:0]  mmio_rd_resp_data,
    input  wire         mmio_rd_resp_err,
    // completion TLP to the arbiter
    output reg          cpl_tlp_valid,
    input  wire         cpl_tlp_ready,
    output wire [127:0] cpl_tlp_hdr,
    output wire [255:0] cpl_tlp_data,
    output wire [7:0]   cpl_tlp_dw_en,
    // event: a CA completion was sent
    output reg          ev_ca
);
  localparam [1:0] S_IDLE = 2'd0, S_RD = 2'd1, S_WAIT = 2'd2, S_SEND = 2'd3;
  localparam [2:0] ST_SC = 3'b000, ST_UR = 3'b001, ST_CA = 3'b100;

  reg [1:0]  state;
  reg [15:0] c_req_id;
  reg [9:0]  c_tag;
  reg [2:0]  c_tc;
  reg [2:0]  c_attr;
  reg [6:0]  c_la;
  reg [11:0] c_bc;
  reg        c_locked;
  reg [2:0]  c_status;
  reg        c_data;      // CplD
  reg [1:0]  c_ldw;       // data DWs (1 or 2)
  reg [63:0] c_payload;

  assign np_ready = (state == S_IDLE);
  assign mmio_rd_resp_ready = (state == S_WAIT);

  // DW0: Fmt, Type (Cpl 01010 / CplLk 01011), T9 23, TC 22:20, T8 19, Attr2 18,
  // Attr 13:12, Length 9:0; DW1: completer id, status, BCM, byte count;
  // DW2: requester id, tag, lower address.
  wire [31:0] h0 = {1'b0, c_data, 1'b0, 4'b0101, c_locked, c_tag[9], c_tc, c_tag[8], c_attr[2],
                    4'b0000, c_attr[1:0], 2'b00, c_data ? {8'd0, c_ldw} : 10'd0};
  wire [31:0] h1 = {cfg_req_id, c_status, 1'b0, c_bc};
  wire [31:0] h2 = {c_req_id, c_tag[7:0], 1'b0, c_la};
  assign cpl_tlp_hdr = {32'd0, h2, h1, h0};
  assign cpl_tlp_data = {192'd0, c_payload};
  assign cpl_tlp_dw_en = !c_data ? 8'h00 : (c_ldw == 2'd2) ? 8'h03 : 8'h01;

  always @(posedge clk) begin
    if (rst) begin
      state <= S_IDLE;
      mmio_rd_valid <= 1'b0;
      mmio_rd_bar <= 2'd0;
      mmio_rd_addr <= 32'd0;
      mmio_rd_len <= 4'd4;
      cpl_tlp_valid <= 1'b0;
      c_req_id <= 16'd0;
      c_tag <= 10'd0;
      c_tc <= 3'd0;
      c_attr <= 3'd0;
      c_la <= 7'd0;
      c_bc <= 12'd0;
      c_locked <= 1'b0;
      c_status <= ST_SC;
      c_data <= 1'b0;
      c_ldw <= 2'd1;
      c_payload <= 64'd0;
      ev_ca <= 1'b0;
    end else begin
      ev_ca <= 1'b0;
      case (state)
        S_IDLE: if (np_valid) begin
          c_req_id <= np_req_id;
          c_tag <= np_tag;
          c_tc <= np_tc;
          c_attr <= np_attr;
          c_la <= np_lower_addr;
          c_bc <= np_byte_count;
          c_locked <= np_locked;
          c_ldw <= (np_len == 4'd8) ? 2'd2 : 2'd1;
          c_payload <= 64'd0;
          mmio_rd_bar <= np_bar;
          mmio_rd_addr <= np_addr;
          mmio_rd_len <= np_len;
          case (np_kind)
            2'd0: begin
              mmio_rd_valid <= 1'b1;
              state <= S_RD;
            end
            2'd1: begin
              c_status <= ST_SC;
              c_data <= 1'b1;
              c_ldw <= 2'd1;
              cpl_tlp_valid <= 1'b1;
              state <= S_SEND;
            end
            default: begin
              c_status <= ST_UR;
              c_data <= 1'b0;
              cpl_tlp_valid <= 1'b1;
              state <= S_SEND;
            end
          endcase
        end
        S_RD: if (mmio_rd_ready) begin
          mmio_rd_valid <= 1'b0;
          state <= S_WAIT;
        end
        S_WAIT: if (mmio_rd_resp_valid) begin
          c_payload <= (c_ldw == 2'd2) ? mmio_rd_resp_data : {32'd0, mmio_rd_resp_data[31:0]};
          c_status <= mmio_rd_resp_err ? ST_CA : ST_SC;
          c_data <= !mmio_rd_resp_err;
          ev_ca <= mmio_rd_resp_err;
          cpl_tlp_valid <= 1'b1;
          state <= S_SEND;
        end
        default: if (cpl_tlp_ready) begin  // S_SEND
          cpl_tlp_valid <= 1'b0;
          state <= S_IDLE;
        end
      endcase
    end
  end

`ifdef FORMAL
  reg f_rst_seen = 1'b0;
  always @(posedge clk) if (rst) f_rst_seen <= 1'b1;
  always @(*) begin
    if (f_rst_seen) begin
      assert(cpl_tlp_valid == (state == S_SEND));
      assert(mmio_rd_valid == (state == S_RD));
      if (cpl_tlp_valid && c_data) assert(c_status == ST_SC);
    end
  end
`endif
endmodule
`default_nettype wire
