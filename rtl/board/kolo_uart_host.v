`default_nettype none
// kolo_uart_host - the host's way into a board without PCIe (the ECP5
// board): a frame protocol over a UART that carries 32-bit register reads
// and writes (to BAR0 of the chip, through m_req_* / s_rsp_*, which
// kolo_uart_tlp turns into TLPs), reads of the bridge's own registers, and
// the service processor's console bytes back to the host. docs/boards.md
// "The host over the UART"; constants in rtl/include/kolo_uart_regs.vh
// (generated from rtl/regs/kolo_uart_regs.toml, as the C side's).
//
// Frames (bytes, fields little-endian):
//   host -> board  A5 op seq addr[4] data[4] crc8       (12 bytes)
//   board -> host  5A op seq status data[4] crc8        (9 bytes)
// crc8: polynomial 0x07, initial 0, over the bytes between sync and crc.
// A request frame is assembled from the byte stream: a byte other than A5
// while waiting for a frame is skipped; a frame with a bad crc8 is dropped
// and counted (CRC_ERRORS); a pause of 32 bit times inside a frame (a lost
// byte) drops the partial frame; either way the parser then looks for A5
// again, and the host resends after its timeout.
// Exactly once: the bridge keeps the last request's seq and its response. A
// request with the same seq (a resend after a lost response) is answered
// with the kept response and not executed again (RESENDS). A new seq is
// executed: NOP answers OK; READ32 / WRITE32 (address 4-byte aligned) go
// out on m_req_*; BRIDGE_READ reads a bridge register. Unknown ops,
// unaligned addresses and bridge addresses beyond the space are BAD_OP.
// The first request after reset is executed whatever its seq.
// Chip accesses: one at a time; m_req_* held until m_req_ready; the
// response (s_rsp_valid with s_rsp_err, s_rsp_data) must come within
// TIMEOUT cycles of the request being taken, else the answer is TIMEOUT
// (TIMEOUTS counted) and m_req_tag moves on, so a late response (whose tag
// is the old one) is told apart by kolo_uart_tlp and dropped there.
// Console: s_con_* bytes (always taken) wait in a CONSOLE_DEPTH-byte FIFO
// and leave in CONSOLE frames of 1..4 bytes whenever no response is due
// (responses first); a byte that finds the FIFO full is dropped and counted.
// Counters (BRIDGE registers): CRC_ERRORS, FRAME_ERRORS, RESENDS, TIMEOUTS,
// TLP_DROPS (pulses on tlp_drop from kolo_uart_tlp), CONSOLE_DROPS; 32 bits,
// saturating.
// Reset: rst synchronous, active high: counters 0, no request kept, line idle.
module kolo_uart_host #(
    parameter CLK_HZ        = 50000000,
    parameter BAUD          = 1000000,
    parameter TIMEOUT       = 50000,   // cycles a chip access may take
    parameter CONSOLE_DEPTH = 64       // console bytes buffered (a power of two)
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        rxd,
    output wire        txd,
    // register accesses to the chip
    output reg         m_req_valid,
    input  wire        m_req_ready,
    output reg         m_req_write,
    output reg  [31:0] m_req_addr,
    output reg  [31:0] m_req_wdata,
    output reg  [7:0]  m_req_tag,      // changes with every request (late responses tell apart)
    output reg         m_req_abandon,  // pulse: the access timed out, stop waiting for it
    input  wire        s_rsp_valid,
    input  wire        s_rsp_err,
    input  wire [31:0] s_rsp_data,
    input  wire [7:0]  s_rsp_tag,
    // TLPs the chip sent that no request asked for (from kolo_uart_tlp)
    input  wire        tlp_drop,
    // service processor console
    input  wire        s_con_valid,
    input  wire [7:0]  s_con_data
);
  `include "kolo_uart_regs.vh"

  generate
    if (TIMEOUT < 16 || CONSOLE_DEPTH < 4 || (CONSOLE_DEPTH & (CONSOLE_DEPTH - 1)) != 0) begin : g_bad
      kolo_uart_host_PARAMETER_ERROR_TIMEOUT_16_CONSOLE_DEPTH_power_of_two u_error ();
    end
  endgenerate

  // ---- UART ------------------------------------------------------------------------------
  wire       rx_valid, rx_frame_err;
  wire [7:0] rx_data;
  kolo_uart_rx #(.CLK_HZ(CLK_HZ), .BAUD(BAUD)) u_rx (
      .clk(clk), .rst(rst), .rxd(rxd),
      .m_valid(rx_valid), .m_data(rx_data), .frame_err(rx_frame_err)
  );
  reg        tx_valid;
  wire       tx_ready;
  reg  [7:0] tx_byte;
  kolo_uart_tx #(.CLK_HZ(CLK_HZ), .BAUD(BAUD)) u_tx (
      .clk(clk), .rst(rst), .s_valid(tx_valid), .s_ready(tx_ready), .s_data(tx_byte), .txd(txd)
  );

  function [7:0] crc8_byte(input [7:0] crc, input [7:0] b);
    integer k;
    reg [7:0] c;
    begin
      c = crc ^ b;
      for (k = 0; k < 8; k = k + 1) c = c[7] ? {c[6:0], 1'b0} ^ `KOLO_UART_CRC_POLY : {c[6:0], 1'b0};
      crc8_byte = c;
    end
  endfunction

  // ---- request frames ----------------------------------------------------------------------
  // fbuf holds the bytes after the sync byte: op, seq, addr[4], data[4]
  reg  [8*10-1:0] fbuf;  // byte k at [8k +: 8] (the crc is compared, not kept)
  reg  [3:0]  fcount;     // bytes of fbuf filled; 0 with in_frame 0: looking for A5
  reg         in_frame;
  reg  [7:0]  fcrc;       // running crc8 over fbuf[0..fcount-1]
  reg         req_new;    // a complete frame with a good crc waits in fbuf
  wire        busy;       // the executor cannot take a frame now
  reg  [31:0] cnt_crc, cnt_frame;
  // a frame's bytes follow each other; a gap of 32 bit times ends a partial one
  localparam integer GAP = (CLK_HZ / BAUD) * 32;
  reg  [31:0] gap_cnt;
  integer i;
  always @(posedge clk) begin
    if (rst) begin
      gap_cnt <= 32'd0;
      fcount <= 4'd0;
      in_frame <= 1'b0;
      fcrc <= 8'd0;
      req_new <= 1'b0;
      cnt_crc <= 32'd0;
      cnt_frame <= 32'd0;
    end else begin
      if (req_new && !busy) req_new <= 1'b0;
      if (rx_frame_err && cnt_frame != 32'hFFFFFFFF) cnt_frame <= cnt_frame + 32'd1;
      gap_cnt <= (rx_valid || !in_frame) ? 32'd0 : gap_cnt + 32'd1;
      if (in_frame && gap_cnt >= GAP) begin
        in_frame <= 1'b0;
        fcount <= 4'd0;
      end
      // a byte arriving while a complete frame still waits for the executor
      // is dropped (the host sends one request at a time)
      if (rx_valid && !req_new) begin
        if (!in_frame) begin
          if (rx_data == `KOLO_UART_SYNC_REQ) begin
            in_frame <= 1'b1;
            fcount <= 4'd0;
            fcrc <= 8'd0;
          end
        end else begin
          if (fcount != 4'd10) begin
            fbuf[fcount*8+:8] <= rx_data;
            fcount <= fcount + 4'd1;
            fcrc <= crc8_byte(fcrc, rx_data);
          end else begin
            in_frame <= 1'b0;
            fcount <= 4'd0;
            if (rx_data == fcrc) req_new <= 1'b1;
            else if (cnt_crc != 32'hFFFFFFFF) cnt_crc <= cnt_crc + 32'd1;
          end
        end
      end
    end
  end
  wire [7:0]  f_op = fbuf[7:0];
  wire [7:0]  f_seq = fbuf[15:8];
  wire [31:0] f_addr = fbuf[47:16];
  wire [31:0] f_data = fbuf[79:48];

  // ---- executor --------------------------------------------------------------------------
  localparam E_IDLE = 2'd0, E_REQ = 2'd1, E_WAIT = 2'd2, E_DONE = 2'd3;
  reg  [1:0]  es;
  reg         have_last;   // a request was executed since reset
  reg  [7:0]  last_op, last_seq, last_status;
  reg  [31:0] last_data;
  reg         rsp_due;     // the kept response has to be sent
  reg  [31:0] wait_cnt;
  reg  [31:0] cnt_resend, cnt_timeout, cnt_tlp, cnt_con;
  assign busy = es != E_IDLE || rsp_due;
  wire resend = have_last && f_seq == last_seq;
  wire bad_align = f_addr[1:0] != 2'b00;

  reg [31:0] bridge_reg;
  always @(*) begin
    case (f_addr)
      `KOLO_UART_BRIDGE_ID: bridge_reg = `KOLO_UART_BRIDGE_ID_RESET;
      `KOLO_UART_BRIDGE_VERSION: bridge_reg = `KOLO_UART_MAP_VERSION;
      `KOLO_UART_BRIDGE_BAUD: bridge_reg = BAUD;
      `KOLO_UART_BRIDGE_CRC_ERRORS: bridge_reg = cnt_crc;
      `KOLO_UART_BRIDGE_FRAME_ERRORS: bridge_reg = cnt_frame;
      `KOLO_UART_BRIDGE_RESENDS: bridge_reg = cnt_resend;
      `KOLO_UART_BRIDGE_TIMEOUTS: bridge_reg = cnt_timeout;
      `KOLO_UART_BRIDGE_TLP_DROPS: bridge_reg = cnt_tlp;
      `KOLO_UART_BRIDGE_CONSOLE_DROPS: bridge_reg = cnt_con;
      default: bridge_reg = 32'd0;
    endcase
  end
  wire bridge_bad = bad_align || f_addr >= `KOLO_UART_SPACE;

  reg con_drop;  // from the console FIFO below
  reg rsp_sent;  // pulse: the kept response went out (frame output below)
  always @(posedge clk) begin
    if (rst) begin
      es <= E_IDLE;
      have_last <= 1'b0;
      last_op <= 8'd0;
      last_seq <= 8'd0;
      last_status <= 8'd0;
      last_data <= 32'd0;
      rsp_due <= 1'b0;
      m_req_valid <= 1'b0;
      m_req_write <= 1'b0;
      m_req_addr <= 32'd0;
      m_req_wdata <= 32'd0;
      m_req_tag <= 8'd0;
      m_req_abandon <= 1'b0;
      wait_cnt <= 32'd0;
      cnt_resend <= 32'd0;
      cnt_timeout <= 32'd0;
      cnt_tlp <= 32'd0;
      cnt_con <= 32'd0;
    end else begin
      if (tlp_drop && cnt_tlp != 32'hFFFFFFFF) cnt_tlp <= cnt_tlp + 32'd1;
      if (con_drop && cnt_con != 32'hFFFFFFFF) cnt_con <= cnt_con + 32'd1;
      if (rsp_sent) rsp_due <= 1'b0;
      m_req_abandon <= 1'b0;
      case (es)
        E_IDLE: if (req_new && !rsp_due) begin
          if (resend) begin
            rsp_due <= 1'b1;
            if (cnt_resend != 32'hFFFFFFFF) cnt_resend <= cnt_resend + 32'd1;
          end else begin
            have_last <= 1'b1;
            last_op <= f_op;
            last_seq <= f_seq;
            last_data <= 32'd0;
            last_status <= `KOLO_UART_ST_OK;
            case (f_op)
              `KOLO_UART_OP_NOP: rsp_due <= 1'b1;
              `KOLO_UART_OP_READ32, `KOLO_UART_OP_WRITE32:
                if (bad_align) begin
                  last_status <= `KOLO_UART_ST_BAD_OP;
                  rsp_due <= 1'b1;
                end else begin
                  m_req_valid <= 1'b1;
                  m_req_write <= f_op == `KOLO_UART_OP_WRITE32;
                  m_req_addr <= f_addr;
                  m_req_wdata <= f_data;
                  m_req_tag <= m_req_tag + 8'd1;
                  es <= E_REQ;
                end
              `KOLO_UART_OP_BRIDGE_READ: begin
                if (bridge_bad) last_status <= `KOLO_UART_ST_BAD_OP;
                else last_data <= bridge_reg;
                rsp_due <= 1'b1;
              end
              default: begin
                last_status <= `KOLO_UART_ST_BAD_OP;
                rsp_due <= 1'b1;
              end
            endcase
          end
        end
        E_REQ: if (m_req_ready) begin
          m_req_valid <= 1'b0;
          wait_cnt <= 32'd0;
          es <= E_WAIT;
        end
        E_WAIT: begin
          wait_cnt <= wait_cnt + 32'd1;
          if (s_rsp_valid && s_rsp_tag == m_req_tag) begin
            last_status <= s_rsp_err ? `KOLO_UART_ST_ERROR : `KOLO_UART_ST_OK;
            last_data <= m_req_write ? 32'd0 : s_rsp_data;
            es <= E_DONE;
          end else if (wait_cnt >= TIMEOUT) begin
            last_status <= `KOLO_UART_ST_TIMEOUT;
            m_req_abandon <= 1'b1;
            if (cnt_timeout != 32'hFFFFFFFF) cnt_timeout <= cnt_timeout + 32'd1;
            es <= E_DONE;
          end
        end
        default: begin  // E_DONE
          rsp_due <= 1'b1;
          es <= E_IDLE;
        end
      endcase
    end
  end

  // ---- console FIFO ----------------------------------------------------------------------
  localparam CW = $clog2(CONSOLE_DEPTH);
  reg [7:0]  con_mem[0:CONSOLE_DEPTH-1];
  reg [CW:0] con_wr, con_rd;
  wire [CW:0] con_level = con_wr - con_rd;
  wire con_full = con_level == CONSOLE_DEPTH[CW:0];
  reg  [2:0] con_take;   // bytes the frame being sent took out (pulse with rsp_sent of a console frame)
  always @(posedge clk) begin
    con_drop <= 1'b0;
    if (rst) begin
      con_wr <= {(CW + 1){1'b0}};
      con_rd <= {(CW + 1){1'b0}};
    end else begin
      if (s_con_valid) begin
        if (con_full) con_drop <= 1'b1;
        else begin
          con_mem[con_wr[CW-1:0]] <= s_con_data;
          con_wr <= con_wr + 1'b1;
        end
      end
      con_rd <= con_rd + {{(CW - 2) {1'b0}}, con_take};
    end
  end

  // ---- response / console frames out -------------------------------------------------------
  // obuf: op, seq, status, data[4], crc (after the sync byte)
  reg  [63:0] obuf;     // byte k at [8k +: 8]
  reg  [3:0] ocount;     // bytes still to send after the current one; 15: idle
  reg        sending;
  wire [2:0] con_n = con_level >= 4 ? 3'd4 : con_level[2:0];
  reg  [7:0] ocrc;
  always @(*) begin
    ocrc = 8'd0;
    for (i = 0; i < 7; i = i + 1) ocrc = crc8_byte(ocrc, obuf[i*8+:8]);
  end
  reg        load_crc;   // obuf[7] <= crc of obuf[0..6] in the next cycle
  wire [2:0] oidx = 3'd7 - ocount[2:0];  // obuf byte sent at ocount 7..0
  always @(posedge clk) begin
    rsp_sent <= 1'b0;
    con_take <= 3'd0;
    if (rst) begin
      sending <= 1'b0;
      ocount <= 4'd0;
      tx_valid <= 1'b0;
      tx_byte <= 8'd0;
      load_crc <= 1'b0;
    end else begin
      load_crc <= 1'b0;
      if (load_crc) obuf[63:56] <= ocrc;
      if (!sending) begin
        if (rsp_due && !rsp_sent) begin
          obuf[55:0] <= {last_data, last_status, last_seq, last_op};
          load_crc <= 1'b1;
          sending <= 1'b1;
          ocount <= 4'd8;
          rsp_sent <= 1'b1;
        end else if (con_n != 3'd0) begin
          obuf[23:0] <= {`KOLO_UART_ST_OK, 5'd0, con_n, `KOLO_UART_OP_CONSOLE};
          for (i = 0; i < 4; i = i + 1)
            obuf[24+i*8+:8] <= (i < con_n) ? con_mem[con_rd[CW-1:0] + i[CW-1:0]] : 8'd0;
          con_take <= con_n;
          load_crc <= 1'b1;
          sending <= 1'b1;
          ocount <= 4'd8;
        end
      end else if (!tx_valid && !load_crc) begin
        tx_valid <= 1'b1;
        tx_byte <= ocount == 4'd8 ? `KOLO_UART_SYNC_RSP : obuf[oidx*8+:8];
      end else if (tx_valid && tx_ready) begin
        tx_valid <= 1'b0;
        if (ocount == 4'd0) sending <= 1'b0;
        else ocount <= ocount - 4'd1;
      end
    end
  end
endmodule
`default_nettype wire
