/** The output's frame rate: the camera, the cursor track and the filter graph all count frames of it. */
export const FPS = 30;
