/**
 * The reference API paints its JPEGs on a worker thread: a JSON answer asked for behind a queue of large pictures
 * is not held until they are painted (inline painting answers strictly in arrival order), the bytes are those the
 * painter makes inline, and a picture asked for by two requests at once comes back identical to both.
 */
import { existsSync } from 'node:fs';
import { generateDataset } from '../../../scripts/reference-api/dataset';
import { parseImagePath } from '../../../scripts/reference-api/media';
import { pictureJobFor } from '../../../scripts/reference-api/picture-catalog';
import { paintJob } from '../../../scripts/reference-api/picture-job';
import { PICTURE_WORKER_BUNDLE } from '../../../scripts/reference-api/picture-painter';
import { startReferenceApi, type RunningReferenceApi } from '../../../scripts/reference-api/server';
import { getOverSocket as get } from './client';
import { NOW, SEED } from './fixtures';

describe('the reference API paints pictures off its own thread', () => {
  let api: RunningReferenceApi;

  beforeAll(async () => {
    api = await startReferenceApi({ seed: SEED, now: NOW, port: 0 });
  });
  afterAll(() => api.close());

  it('runs from the built painter bundle', () => {
    // npm test builds before jest runs; without the bundle pictures would be painted inline and this suite means nothing.
    expect(existsSync(PICTURE_WORKER_BUNDLE)).toBe(true);
  });

  it('answers a JSON call while large pictures queued before it are still being painted', async () => {
    // Sizes no other suite asks for, so nothing is cached in this process yet.
    const pictures = Array.from({ length: 10 }, (_, index) => `${api.url}/media/img/a${33700 + index}-1197x${1301 + index}.jpg`);
    const settled = new Set<number>();
    const painting = pictures.map((url, index) =>
      get(url).then((answer) => {
        settled.add(index);
        return answer;
      }),
    );
    const menu = await get(`${api.url}/api/rmt/read_newspapers_search?page=1`);
    const paintedBeforeJson = settled.size;
    const answers = await Promise.all(painting);
    expect(menu.status).toBe(200);
    expect(answers.every((answer) => answer.status === 200 && answer.bytes.length > 1000)).toBe(true);
    expect(paintedBeforeJson).toBeLessThan(pictures.length);
  });

  it('sends the bytes the painter makes inline, the same to two requests at once', async () => {
    const dataset = generateDataset({ seed: SEED, now: NOW });
    const request = parseImagePath('/media/img/a33727-321x181.jpg');
    if (!request) throw new Error('the picture path does not parse');
    const inline = Buffer.from(paintJob(pictureJobFor(dataset, request)));
    const [first, second] = await Promise.all([get(`${api.url}/media/img/a33727-321x181.jpg`), get(`${api.url}/media/img/a33727-321x181.jpg`)]);
    expect(first.bytes.equals(inline)).toBe(true);
    expect(second.bytes.equals(inline)).toBe(true);
  });
});
