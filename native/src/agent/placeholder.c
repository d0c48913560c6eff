/* Placeholder so the skeleton links; replaced by the agent sources. */
