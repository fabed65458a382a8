/**
 * A tiny but valid H.264 (constrained baseline) MP4, built in code so video ads point at a file browsers really
 * play and no binary asset has to live in the repo. The clip is one I_PCM key frame (a coloured gradient, raw
 * samples, so no transform coding is needed) followed by P frames whose macroblocks are all skipped.
 */

export const MB = 16;

export interface Mp4Options {
  /** Multiples of 16 keep the stream free of cropping fields. */
  width: number;
  height: number;
  frames: number;
  fps: number;
  /** 0–255 hue-ish selector so different ads get different colours. */
  tint: number;
}

/** Writes H.264 syntax elements: fixed-width bits and Exp-Golomb codes. */
class BitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private used = 0;

  bit(value: number): void {
    this.current = (this.current << 1) | (value & 1);
    this.used += 1;
    if (this.used === 8) {
      this.bytes.push(this.current);
      this.current = 0;
      this.used = 0;
    }
  }

  bits(value: number, count: number): void {
    for (let shift = count - 1; shift >= 0; shift -= 1) this.bit((value >>> shift) & 1);
  }

  ue(value: number): void {
    const coded = value + 1;
    const length = Math.floor(Math.log2(coded));
    this.bits(0, length);
    this.bits(coded, length + 1);
  }

  se(value: number): void {
    this.ue(value <= 0 ? -2 * value : 2 * value - 1);
  }

  alignZero(): void {
    while (this.used !== 0) this.bit(0);
  }

  byte(value: number): void {
    this.bits(value, 8);
  }

  /** rbsp_trailing_bits: a stop bit, then zeros to the byte boundary. */
  finish(): Uint8Array {
    this.bit(1);
    this.alignZero();
    return Uint8Array.from(this.bytes);
  }
}

/** Emulation prevention: no 0x000000–0x000003 may appear inside a NAL unit payload. */
function escapeRbsp(rbsp: Uint8Array): number[] {
  const out: number[] = [];
  let zeros = 0;
  for (const byte of rbsp) {
    if (zeros >= 2 && byte <= 3) {
      out.push(3);
      zeros = 0;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return out;
}

function nal(refIdc: number, type: number, rbsp: Uint8Array): Uint8Array {
  return Uint8Array.from([(refIdc << 5) | type, ...escapeRbsp(rbsp)]);
}

export const PROFILE_BASELINE = 66;
export const CONSTRAINT_FLAGS = 0xc0; // constraint_set0 + set1: constrained baseline
export const LEVEL = 30;
const LOG2_MAX_FRAME_NUM = 4;

export function sequenceParameterSet(widthMbs: number, heightMbs: number): Uint8Array {
  const w = new BitWriter();
  w.byte(PROFILE_BASELINE);
  w.byte(CONSTRAINT_FLAGS);
  w.byte(LEVEL);
  w.ue(0); // seq_parameter_set_id
  w.ue(LOG2_MAX_FRAME_NUM - 4);
  w.ue(2); // pic_order_cnt_type 2: output order = decode order
  w.ue(1); // max_num_ref_frames
  w.bit(0); // gaps_in_frame_num_value_allowed_flag
  w.ue(widthMbs - 1);
  w.ue(heightMbs - 1);
  w.bit(1); // frame_mbs_only_flag
  w.bit(1); // direct_8x8_inference_flag
  w.bit(0); // frame_cropping_flag
  w.bit(0); // vui_parameters_present_flag
  return nal(3, 7, w.finish());
}

export function pictureParameterSet(): Uint8Array {
  const w = new BitWriter();
  w.ue(0); // pic_parameter_set_id
  w.ue(0); // seq_parameter_set_id
  w.bit(0); // entropy_coding_mode_flag: CAVLC
  w.bit(0); // bottom_field_pic_order_in_frame_present_flag
  w.ue(0); // num_slice_groups_minus1
  w.ue(0); // num_ref_idx_l0_default_active_minus1
  w.ue(0); // num_ref_idx_l1_default_active_minus1
  w.bit(0); // weighted_pred_flag
  w.bits(0, 2); // weighted_bipred_idc
  w.se(0); // pic_init_qp_minus26
  w.se(0); // pic_init_qs_minus26
  w.se(0); // chroma_qp_index_offset
  w.bit(1); // deblocking_filter_control_present_flag
  w.bit(0); // constrained_intra_pred_flag
  w.bit(0); // redundant_pic_cnt_present_flag
  return nal(3, 8, w.finish());
}

/** Luma stays in 16..235 and chroma in 16..240 (video range); no sample is 0. */
function clampSample(value: number, max: number): number {
  return Math.max(16, Math.min(max, Math.round(value)));
}

export function idrSlice(widthMbs: number, heightMbs: number, tint: number, idrPicId = 0): Uint8Array {
  const w = new BitWriter();
  w.ue(0); // first_mb_in_slice
  w.ue(7); // slice_type: I, all slices of the picture
  w.ue(0); // pic_parameter_set_id
  w.bits(0, LOG2_MAX_FRAME_NUM); // frame_num
  w.ue(idrPicId); // idr_pic_id: consecutive IDR pictures (HLS segments) must differ
  w.bit(0); // no_output_of_prior_pics_flag
  w.bit(0); // long_term_reference_flag
  w.se(0); // slice_qp_delta
  w.ue(1); // disable_deblocking_filter_idc
  const width = widthMbs * MB;
  const angle = (tint / 256) * 2 * Math.PI;
  const cb = clampSample(128 + 60 * Math.cos(angle), 240);
  const cr = clampSample(128 + 60 * Math.sin(angle), 240);
  for (let mbY = 0; mbY < heightMbs; mbY += 1) {
    for (let mbX = 0; mbX < widthMbs; mbX += 1) {
      w.ue(25); // mb_type I_PCM
      w.alignZero(); // pcm_alignment_zero_bit
      for (let y = 0; y < MB; y += 1) {
        for (let x = 0; x < MB; x += 1) w.byte(clampSample(50 + (150 * (mbX * MB + x)) / width, 235));
      }
      for (let index = 0; index < 64; index += 1) w.byte(cb);
      for (let index = 0; index < 64; index += 1) w.byte(cr);
    }
  }
  return nal(3, 5, w.finish());
}

export function skippedPSlice(frameNum: number, mbCount: number): Uint8Array {
  const w = new BitWriter();
  w.ue(0); // first_mb_in_slice
  w.ue(5); // slice_type: P, all slices of the picture
  w.ue(0); // pic_parameter_set_id
  w.bits(frameNum % (1 << LOG2_MAX_FRAME_NUM), LOG2_MAX_FRAME_NUM);
  w.bit(0); // num_ref_idx_active_override_flag
  w.bit(0); // ref_pic_list_modification_flag_l0
  w.bit(0); // adaptive_ref_pic_marking_mode_flag
  w.se(0); // slice_qp_delta
  w.ue(1); // disable_deblocking_filter_idc
  w.ue(mbCount); // mb_skip_run: every macroblock copies the reference
  return nal(2, 1, w.finish());
}

// ---- ISO BMFF boxes ----

export function u16(value: number): number[] {
  return [(value >>> 8) & 0xff, value & 0xff];
}
export function u32(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}
export function ascii(text: string): number[] {
  return Array.from(text, (char) => char.charCodeAt(0));
}
export function zeros(count: number): number[] {
  return new Array<number>(count).fill(0);
}

export function box(type: string, ...parts: ReadonlyArray<readonly number[] | Uint8Array>): number[] {
  const body = parts.flatMap((part) => Array.from(part));
  return [...u32(body.length + 8), ...ascii(type), ...body];
}

export function fullBox(type: string, version: number, flags: number, ...parts: ReadonlyArray<readonly number[]>): number[] {
  return box(type, [version, (flags >>> 16) & 0xff, (flags >>> 8) & 0xff, flags & 0xff], ...parts);
}

export const UNITY_MATRIX = [0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000].flatMap(u32);
export const TIMESCALE = 1000;

export interface TrackLayout {
  width: number;
  height: number;
  sampleSizes: number[];
  sampleDelta: number;
  chunkOffset: number;
  sps: Uint8Array;
  pps: Uint8Array;
}

export function sampleDescription(layout: Pick<TrackLayout, 'width' | 'height' | 'sps' | 'pps'>): number[] {
  const compressor = [9, ...ascii('qnnews-ra'), ...zeros(22)];
  const avcC = box(
    'avcC',
    [1, PROFILE_BASELINE, CONSTRAINT_FLAGS, LEVEL, 0xff, 0xe1],
    u16(layout.sps.length),
    layout.sps,
    [1],
    u16(layout.pps.length),
    layout.pps,
  );
  const avc1 = box(
    'avc1',
    zeros(6),
    u16(1), // data_reference_index
    zeros(16),
    u16(layout.width),
    u16(layout.height),
    u32(0x00480000),
    u32(0x00480000),
    u32(0),
    u16(1), // frame_count
    compressor,
    u16(0x0018),
    u16(0xffff),
    avcC,
  );
  return fullBox('stsd', 0, 0, u32(1), avc1);
}

function sampleTable(layout: TrackLayout): number[] {
  const count = layout.sampleSizes.length;
  return box(
    'stbl',
    sampleDescription(layout),
    fullBox('stts', 0, 0, u32(1), u32(count), u32(layout.sampleDelta)),
    fullBox('stss', 0, 0, u32(1), u32(1)),
    fullBox('stsc', 0, 0, u32(1), u32(1), u32(count), u32(1)),
    fullBox('stsz', 0, 0, u32(0), u32(count), layout.sampleSizes.flatMap(u32)),
    fullBox('stco', 0, 0, u32(1), u32(layout.chunkOffset)),
  );
}

function movie(layout: TrackLayout): number[] {
  const duration = layout.sampleSizes.length * layout.sampleDelta;
  const mvhd = fullBox('mvhd', 0, 0, u32(0), u32(0), u32(TIMESCALE), u32(duration), u32(0x00010000), u16(0x0100), zeros(10), UNITY_MATRIX, zeros(24), u32(2));
  const tkhd = fullBox(
    'tkhd',
    0,
    3,
    u32(0),
    u32(0),
    u32(1),
    u32(0),
    u32(duration),
    zeros(8),
    u16(0),
    u16(0),
    u16(0),
    u16(0),
    UNITY_MATRIX,
    u32(layout.width << 16),
    u32(layout.height << 16),
  );
  const mdhd = fullBox('mdhd', 0, 0, u32(0), u32(0), u32(TIMESCALE), u32(duration), u16(0x55c4), u16(0));
  const hdlr = fullBox('hdlr', 0, 0, u32(0), ascii('vide'), zeros(12), ascii('VideoHandler'), [0]);
  const dinf = box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1)));
  const minf = box('minf', fullBox('vmhd', 0, 1, zeros(8)), dinf, sampleTable(layout));
  return box('moov', mvhd, box('trak', tkhd, box('mdia', mdhd, hdlr, minf)));
}

export function buildMp4(options: Mp4Options): Buffer {
  const widthMbs = Math.max(1, Math.floor(options.width / MB));
  const heightMbs = Math.max(1, Math.floor(options.height / MB));
  const samples: Uint8Array[] = [idrSlice(widthMbs, heightMbs, options.tint)];
  for (let frame = 1; frame < options.frames; frame += 1) samples.push(skippedPSlice(frame, widthMbs * heightMbs));
  // MP4 samples are length-prefixed NAL units (avcC lengthSizeMinusOne = 3).
  const sampleBytes = samples.map((sample) => [...u32(sample.length), ...sample]);
  const ftyp = box('ftyp', ascii('isom'), u32(0x200), ascii('isomiso2avc1mp41'));
  const layout: TrackLayout = {
    width: widthMbs * MB,
    height: heightMbs * MB,
    sampleSizes: sampleBytes.map((bytes) => bytes.length),
    sampleDelta: Math.round(TIMESCALE / options.fps),
    chunkOffset: 0,
    sps: sequenceParameterSet(widthMbs, heightMbs),
    pps: pictureParameterSet(),
  };
  // The moov size does not depend on the offset value, so one sizing pass gives the real mdat position.
  layout.chunkOffset = ftyp.length + movie(layout).length + 8;
  const mdat = box('mdat', sampleBytes.flat());
  return Buffer.from([...ftyp, ...movie(layout), ...mdat]);
}
