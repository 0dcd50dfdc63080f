import { clone, create } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { randomUUID } from "node:crypto";
import { notFoundError } from "./errors.js";
import {
  PageThemeSchema,
  PageThemeService,
  UpdatePageThemeRequestSchema,
} from "./gen/linkhub/v1/themes_pb.js";
import type { Store } from "./store.js";
import { selectUpdatedFields } from "./update-fields.js";
import { requireHexColor } from "./validation.js";

/** The fields of `linkhub.v1.UpdatePageThemeRequest` an update may change. */
const updatablePageThemeFields = ["name", "background_color", "font"] as const;

/**
 * Creates the `linkhub.v1.PageThemeService` implementation over `store`.
 *
 * `background_color` must be empty or `#RRGGBB`; unknown page theme ids are
 * NOT_FOUND. An update changes the fields that are set in the request.
 */
export function createPageThemeService(
  store: Store,
): ServiceImpl<typeof PageThemeService> {
  return {
    createPageTheme(req) {
      requireHexColor("background_color", req.backgroundColor);
      const id = randomUUID();
      const pageTheme = create(PageThemeSchema, {
        id,
        workspaceId: req.workspaceId,
        name: req.name,
        backgroundColor: req.backgroundColor,
        palette: { ...req.palette },
        updateTime: timestampNow(),
      });
      if (req.font !== undefined) {
        pageTheme.font = req.font;
      }
      store.pageThemes.set(id, pageTheme);
      return { pageTheme };
    },

    listPageThemes(req) {
      const pageThemes = [...store.pageThemes.values()].filter(
        (pageTheme) => pageTheme.workspaceId === req.workspaceId,
      );
      return { pageThemes };
    },

    updatePageTheme(req) {
      const stored = store.pageThemes.get(req.id);
      if (stored === undefined) {
        throw notFoundError("page_theme", req.id);
      }
      const pageTheme = clone(PageThemeSchema, stored);
      const fields = selectUpdatedFields(
        UpdatePageThemeRequestSchema,
        req,
        updatablePageThemeFields,
      );
      if (fields.has("name") && req.name !== undefined) {
        pageTheme.name = req.name;
      }
      if (fields.has("background_color") && req.backgroundColor !== undefined) {
        requireHexColor("background_color", req.backgroundColor);
        pageTheme.backgroundColor = req.backgroundColor;
      }
      if (fields.has("font") && req.font !== undefined) {
        pageTheme.font = req.font;
      }
      pageTheme.updateTime = timestampNow();
      store.pageThemes.set(pageTheme.id, pageTheme);
      return { pageTheme };
    },
  };
}
